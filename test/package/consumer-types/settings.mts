// An ES module of a service that uses the features' route settings, typed against the built
// package, and adds a route setting and a request field of its own by declaration merging.
import {
  caching,
  conventions,
  defineResource,
  defineRoutes,
  type Plugin,
  payloads,
  type RouteConfig,
} from 'api-conventions';

declare module 'api-conventions' {
  interface RouteConfig {
    /** Whether the route's calls are written to the audit log. */
    audit?: boolean;
  }
  interface RequestState {
    /** The tenant the request acts for. */
    tenant?: string;
  }
}

const book = defineResource<{ id: string; title: string }>({ fields: { id: true, title: true } });

const audit: Plugin = {
  name: 'audit',
  routeConfig: ['audit'],
  onRoute(route) {
    const on: boolean | undefined = route.config.audit;
    if (on && route.method === 'GET') throw new TypeError('audit records changes only');
  },
  preParsing(ctx) {
    ctx.state.tenant = ctx.headers.get('x-tenant') ?? undefined;
  },
};

const routes = defineRoutes({
  '/v1/books': {
    GET: {
      handler: (ctx) => {
        // Request state of the features and of the service, through one RequestState.
        const format: 'json' | 'xml' | undefined = ctx.state.format?.format;
        const tag: string | undefined = ctx.state.validators?.tag;
        const version: number | undefined = ctx.state.apiVersion;
        const tenant: string | undefined = ctx.state.tenant;
        return { books: [], hasNext: false, format, tag, version, tenant };
      },
      config: {
        // Each feature's settings (caching, bearer, negotiation, payloads, versioning).
        cacheControl: { private: true, maxAge: 60 },
        etag: 'weak',
        scopes: ['books:read'],
        auth: 'optional',
        formats: ['json', 'xml'],
        list: { name: 'books', styles: ['page', 'cursor'], sort: ['title'] },
        resource: book,
        deprecation: { announced: '2026-01-01', sunset: '2026-07-01' },
        securityHeaders: { frameOptions: 'deny' },
      },
    },
    POST: {
      handler: () => ({}),
      config: {
        // The pipeline's body settings and the service's own.
        body: { title: { type: 'string', required: true } },
        accepts: ['json', 'form'],
        encodings: ['gzip'],
        bodyLimit: 64_000,
        writable: ['title'],
        audit: true,
      },
    },
  },
});
conventions({ routes, plugins: [caching(), payloads(), audit] });

const settings: RouteConfig[] = [
  // @ts-expect-error `scopes` is a list of scopes, not one string
  { scopes: 'books:read' },
  // @ts-expect-error `cacheControl` is a policy (directives or a string), not a number
  { cacheControl: 60 },
  // @ts-expect-error a misspelt feature setting is not a RouteConfig key
  { cachecontrol: 'no-store' },
  // @ts-expect-error `audit`, the service's own setting, is a boolean
  { audit: 'yes' },
  // @ts-expect-error a list needs its `name`
  { list: { styles: ['page'] } },
  // @ts-expect-error `deprecation` needs its `sunset`
  { deprecation: { announced: '2026-01-01' } },
];

export { settings };
