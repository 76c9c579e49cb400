/** The app's own routes beside the table (Hono's): the middleware, guards and error handler. */

import type { Conventions, ConventionsOptions, Identity, RouteConfig } from 'api-conventions';
import {
  assertFetchHostOptions,
  CompanionFinder,
  heldContext,
  markStep,
  toWebResponse,
  type ValidatorResult,
  validatorRejection,
  warnWithoutAddress,
  withAppHeaders,
} from '#core';
import {
  type AppRouteEntry,
  bindFetch,
  type FetchContext,
  type FetchHostOptions,
} from './_fetch-host.ts';
import { honoMatches, type MatchedRequest } from './_fetch-match.ts';

export type {
  IssuePathKey,
  IssuePathSegment,
  StandardIssue,
  ValidatorError,
  ValidatorResult,
} from '#core';

/** A Hono-style middleware: runs before the app's routes and may replace `c.res` after them. */
export type FetchMiddleware = (
  c: FetchContext,
  next: () => Promise<void>,
) => Promise<Response | undefined>;

/** Options of {@link toFetchMiddleware}. */
export interface FetchMiddlewareOptions<Context = unknown> extends FetchHostOptions<Context> {
  /**
   * The app's own routes (Hono: `() => app.routes`): they join the route view, so a wrong method
   * on one of them is 405 with `Allow` and OPTIONS and CORS preflights list its methods.
   * @default none
   */
  routes?: (() => readonly AppRouteEntry[]) | undefined;
}

/**
 * Middleware for a host with routes of its own (Hono's `app.use('*', …)`, registered before
 * them). Every request runs the pre-routing phase and the path rules; a table route is answered
 * here, end to end. Any other request is checked on what Hono will run for it (its own match):
 * the first of the app's routes that could serve it gets its authentication and `preParsing`
 * checks, and a caller without credentials passes only when every route (and no middleware the
 * library cannot read) that could serve the request lets one through. The app's handlers read the
 * caller through {@link identityOf}; their `Response` gets the always-on headers and those the
 * checks gathered.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { identityOf, toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = new Hono();
 * app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
 * app.get('/v1/me', (c) => c.json({ subject: identityOf(c)?.subject ?? null }));
 * app.notFound(toFetchHandler(api));
 * ```
 *
 * @see [Adopting in an existing app](../../docs/existing-apps.md) for a Hono app with routes of its
 *   own, and [Adapters](../../docs/adapters.md).
 */
export function toFetchMiddleware<Context = unknown>(
  api: Conventions | ConventionsOptions,
  options: FetchMiddlewareOptions<Context> = {},
): FetchMiddleware {
  const bound = bindFetch(api, 'toFetchMiddleware');
  const { host } = bound;
  assertFetchHostOptions('toFetchMiddleware()', options, ['routes']);
  if (options.routes !== undefined) bound.readRoutes(options.routes);
  if (options.remoteAddress === undefined) {
    const how = "On Hono's node server: remoteAddress: (_, c) => getConnInfo(c).remote.address.";
    warnWithoutAddress(host.api, 'toFetchMiddleware', how);
  }
  const { logger, observes } = host;
  // What the app already has: Hono's own middleware in its routes, hono-rate-limiter by its store.
  const finder = new CompanionFinder(host);
  const companions = (c: FetchContext & { var?: { rateLimitStore?: unknown } }) =>
    finder.seen(options.routes?.(), c.var?.rateLimitStore);
  return async (c, next) => {
    const request = c.req.raw;
    companions(c);
    // The final status of every response, the app's own routes' included.
    const done = (response: Response) => {
      if (observes) host.sent(request, response.status);
      return response;
    };
    bound.receive(request, c, options as FetchHostOptions<unknown>);
    // Refused, or a route of the table, answered here; else the app's routes run.
    const answer = await host.front(request);
    if (answer !== undefined) return done(toWebResponse(answer, logger));
    await next();
    companions(c);
    c.res = done(withAppHeaders(c.res, host, request));
    return undefined;
  };
}

/**
 * Route settings for one of the app's own routes (Hono's `app.post(path, toFetchGuard(api,
 * settings), handler)`). Their authentication and checks run in {@link toFetchMiddleware} (again
 * here only when Hono reached this route by its own order after another); here, when the settings
 * say how the body is read (`body`, `accepts`, `encodings`, `bodyLimit`), the body is read, parsed
 * and checked, then the `preHandler` checks run. A guard without body settings leaves the body
 * unread, for the handler or a validator (`@hono/zod-validator`). The handler reads a checked
 * body with {@link bodyOf}. The settings are checked now: a misspelt key is a `TypeError`.
 *
 * @example
 * ```ts
 * import { bearer, conventions, createTokenKeys } from 'api-conventions';
 * import { bodyOf, toFetchErrorHandler, toFetchGuard, toFetchMiddleware } from 'api-conventions/fetch';
 * import { Hono } from 'hono';
 *
 * const keys = await createTokenKeys();
 * const issuer = 'https://api.example.com';
 * const api = conventions({ plugins: [bearer({ keys, issuer, audience: issuer })] });
 * const app = new Hono();
 * app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
 * app.onError(toFetchErrorHandler(api));
 * const note = { text: { type: 'string', required: true } } as const;
 * app.post('/v1/notes', toFetchGuard(api, { scopes: ['notes:write'], body: note }), (c) =>
 *   c.json(bodyOf<{ text: string }>(c), 201),
 * );
 * ```
 */
export function toFetchGuard(api: Conventions, settings: RouteConfig): FetchMiddleware {
  const bound = bindFetch(api, 'toFetchGuard');
  const { host, entries } = bound;
  const { config } = host.settingsOf('ANY', 'guard()', settings);
  const guard: FetchMiddleware = async (c, next) => {
    const request = c.req.raw;
    bound.receive(request, c);
    const req = c.req as MatchedRequest;
    const route = entries.settingsAt(honoMatches(req), request.method);
    const params = req.param?.();
    const guarded = await host.guard(request, route, params);
    if (guarded.response !== undefined) return toWebResponse(guarded.response, host.logger);
    await next();
    return undefined;
  };
  return markStep(guard, { guard: config });
}

/**
 * The verified caller of a request the middleware saw (`ctx.identity`), or `undefined`.
 *
 * @example
 * ```ts
 * import { bearer, conventions, createTokenKeys } from 'api-conventions';
 * import { identityOf, toFetchErrorHandler, toFetchMiddleware } from 'api-conventions/fetch';
 * import { Hono } from 'hono';
 *
 * const keys = await createTokenKeys();
 * const issuer = 'https://api.example.com';
 * const api = conventions({ plugins: [bearer({ keys, issuer, audience: issuer })] });
 * const app = new Hono();
 * app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
 * app.onError(toFetchErrorHandler(api));
 * app.get('/v1/me', (c) => c.json({ subject: identityOf(c)?.subject ?? null }));
 * ```
 */
export function identityOf(c: FetchContext | Request): Identity | undefined {
  return heldContext(c instanceof Request ? c : c.req.raw)?.identity;
}

/**
 * The body {@link toFetchGuard} read and checked for this request (typed by the caller, as the
 * route's `body` rules make it), or `undefined` when the guard read none.
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * import { bodyOf, toFetchErrorHandler, toFetchGuard, toFetchMiddleware } from 'api-conventions/fetch';
 * import { Hono } from 'hono';
 *
 * const api = conventions({});
 * const app = new Hono();
 * app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
 * app.onError(toFetchErrorHandler(api));
 * const book = { title: { type: 'string', required: true }, year: { type: 'integer' } } as const;
 * app.post('/v1/books', toFetchGuard(api, { auth: false, body: book }), (c) => {
 *   const body = bodyOf<{ title: string; year?: number }>(c)!; // checked: 400 before this line
 *   return c.json({ id: 'b1', ...body }, 201);
 * });
 * ```
 */
export function bodyOf<T = unknown>(c: FetchContext | Request): T | undefined {
  return heldContext(c instanceof Request ? c : c.req.raw)?.body as T | undefined;
}

/**
 * An error handler for the app's own routes (Hono's `app.onError`): what they throw gets the
 * spec's error body and status, reported to the conventions' logger, as on every other host.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { toFetchErrorHandler } from 'api-conventions/fetch';
 *
 * const app = new Hono();
 * app.onError(toFetchErrorHandler(conventions({})));
 * ```
 */
export function toFetchErrorHandler(
  api: Conventions | ConventionsOptions,
): (
  error: unknown,
  c: { req: { raw: Request; bodyCache?: object } },
) => Response | Promise<Response> {
  const bound = bindFetch(api, 'toFetchErrorHandler');
  const { host } = bound;
  return (error, c) => {
    const request = c.req.raw;
    bound.receive(request, c);
    // Hono keeps what `c.req.json()` and its siblings read: the app read the body itself.
    const bodyRead = c.req.bodyCache !== undefined && Object.keys(c.req.bodyCache).length > 0;
    return toWebResponse(host.fail(request, error, { bodyRead }), host.logger);
  };
}

/**
 * The hook for a validator middleware on Hono (`zValidator('json', schema, validationHook)`): a
 * value that fails its schema is refused with the spec's 400 error body, one entry per issue
 * naming where it is, as a route's own schemas refuse it (the error reaches
 * {@link toFetchErrorHandler}). Without it, the validator answers with a body of its own.
 *
 * @example
 * ```ts
 * import { zValidator } from '@hono/zod-validator';
 * import { Hono } from 'hono';
 * import { z } from 'zod';
 * import { conventions } from 'api-conventions';
 * import { toFetchErrorHandler, toFetchGuard, validationHook } from 'api-conventions/fetch';
 *
 * const api = conventions({});
 * const app = new Hono();
 * app.onError(toFetchErrorHandler(api));
 * app.post('/v1/notes', toFetchGuard(api, {}), zValidator('json', z.object({ text: z.string() }), validationHook), (c) =>
 *   c.json(c.req.valid('json'), 201),
 * );
 * ```
 */
export function validationHook(result: ValidatorResult, _c?: unknown): undefined {
  const rejection = validatorRejection(result);
  if (rejection !== undefined) throw rejection;
  return undefined;
}
