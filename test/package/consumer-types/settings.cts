// The same settings from CommonJS: its own copy of the types (core.d.cts) merges them too.
import api = require('api-conventions');

declare module 'api-conventions' {
  interface RouteConfig {
    /** How long the route's audit records are kept, in days. */
    retention?: number;
  }
}

const config: api.RouteConfig = {
  cacheControl: 'no-store',
  requireIfMatch: true,
  scopes: ['books:write'],
  user: true,
  list: { name: 'books' },
  body: { title: { type: 'string' } },
  rejectUnknownFields: false,
  hideForbidden: true,
  rateLimit: [{ limit: 5, window: 60 }],
  retention: 30,
};
// @ts-expect-error `retention` is a number of days
const wrong: api.RouteConfig = { retention: '30 days' };
export = { config, wrong };
