/** A small API that makes the failures the bookshelf never makes, for the error suite. */
import {
  type Conventions,
  conventions,
  defineRoutes,
  forbidden,
  notFound,
  ok,
} from 'api-conventions';

/** What the probe's logger received. */
export interface Logged {
  errors: { message: string; error: unknown }[];
  /** The logger's warnings (route lint at start-up, development hints), when given. */
  warnings?: string[];
}

/** What the `/v1/values/:kind` route returns for each kind: JSON values that are not objects. */
export const handlerValues: Readonly<Record<string, unknown>> = {
  null: null,
  number: 42,
  zero: 0,
  string: 'forty-two',
  'empty-string': '',
  false: false,
};

/** Builds the probe API, reporting faults into `logged`. */
export function createProbe(logged: Logged): Conventions {
  const routes = defineRoutes({
    '/v1/failures': {
      GET: () => {
        throw new Error('database password is hunter2');
      },
    },
    '/v1/async-failures': {
      GET: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new RangeError('secret internal detail');
      },
    },
    '/v1/bare-lists': { GET: () => [1, 2, 3] },
    '/v1/forbidden-things': {
      GET: () => {
        throw forbidden('You may not see the forbidden things.');
      },
    },
    '/v1/notes': {
      POST: {
        handler: (ctx) => ok({ received: ctx.body }),
        config: { bodyLimit: 64 },
      },
    },
    '/v1/form-notes': {
      POST: { handler: (ctx) => ok({ received: ctx.body }), config: { accepts: ['form'] } },
    },
    '/v1/pings': {
      GET: () => ok({ via: 'get' }),
      HEAD: () => ok({ via: 'head, longer body' }),
    },
    '/v1/files/*path': { GET: (ctx) => ok({ path: ctx.param('path') }) },
    '/v1/bad-headers': {
      GET: () => ok({ fine: true }, { 'x-broken': 'line\r\nbreak' }),
    },
    '/v1/memos': {
      POST: {
        handler: (ctx) => ok({ received: ctx.body }),
        config: { body: { text: { type: 'string' } } },
      },
    },
    '/v1/memos/:id': {
      DELETE: (ctx) => ok({ deleted: ctx.param('id'), hadBody: ctx.body !== undefined }),
    },
    '/v1/values/:kind': {
      GET: (ctx) => {
        const kind = ctx.param('kind');
        if (!Object.hasOwn(handlerValues, kind)) throw notFound(`No value of kind "${kind}".`);
        return handlerValues[kind];
      },
    },
    // A POST handler that forgets to return: 204, and a development warning naming the route.
    '/v1/drafts': { POST: () => {} },
  });
  return conventions({
    routes,
    lintOptions: { pluralExceptions: ['bad-headers'], allow: ['/v1/files/*'] },
    development: true,
    logger: {
      error: (record, message) => logged.errors.push({ message, error: record.err }),
      warn: (message) => logged.warnings?.push(message),
    },
  });
}
