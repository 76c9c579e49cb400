/** `createClient()`: a client of a service that follows the conventions, typed from its routes. */

import type { FieldsOf, ResultOf, ViewsOf } from './body-types.ts';
import type { CallOptions, OptionsRequiredOf, TypedCallOptions } from './call-types.ts';
import { type ClientOptions, type ClientState, resolveClientOptions } from './options.ts';
import { type PagingOptions, paginate } from './paginate.ts';
import type { ClientMethod, PathsWith, RouteAt, RoutesOf } from './route-types.ts';
import { type ClientResponse, send } from './send.ts';
import type { SignInOptions } from './sign-in.ts';
import { expandPath, withQuery } from './url.ts';

/**
 * The arguments after the path: the options, required when the path has parameters or the
 * route requires a body (`Required`, from `OptionsRequiredOf`).
 *
 * @category Client
 */
export type OptionsArg<Required, O> = Required extends true ? [options: O] : [options?: O];

/**
 * One method of a typed client: paths of the routes with that method, their parameters, query
 * and body, and the response narrowed by `fields`.
 *
 * @param path - The route's template, as the table writes it.
 * @param options - Its parameters, query, body and selection.
 * @category Client
 */
export type TypedMethod<R, M extends ClientMethod, Raw extends boolean> = <
  P extends PathsWith<R, M>,
  F extends FieldsOf<RouteAt<R, P, M>> = never,
  V extends ViewsOf<RouteAt<R, P, M>> = never,
>(
  path: P,
  ...options: OptionsArg<
    OptionsRequiredOf<RouteAt<R, P, M>, P, M>,
    TypedCallOptions<RouteAt<R, P, M>, P, M, F, V>
  >
) => Promise<
  Raw extends true
    ? ClientResponse<ResultOf<RouteAt<R, P, M>, F, V>>
    : ResultOf<RouteAt<R, P, M>, F, V>
>;

/**
 * One method of an untyped client: any path, and a body of the type you say.
 *
 * @category Client
 */
export type UntypedMethod<Raw extends boolean> = <T = unknown>(
  path: string,
  options?: CallOptions,
) => Promise<Raw extends true ? ClientResponse<T> : T>;

/**
 * A method, typed when the client has routes.
 *
 * @category Client
 */
export type MethodOf<R, M extends ClientMethod, Raw extends boolean> = unknown extends R
  ? UntypedMethod<Raw>
  : TypedMethod<R, M, Raw>;

/**
 * The item type of a list result: the elements of its array member.
 *
 * @category Client
 */
export type ItemsOf<B> = {
  [K in keyof B]-?: B[K] extends readonly (infer E)[] ? E : never;
}[keyof B];

/**
 * `paginate` of a typed client: the items of a list route, narrowed by `fields`.
 *
 * @param path - The list's template.
 * @param options - Its parameters, query, selection and paging.
 * @category Client
 */
export type TypedPaginate<R> = <
  P extends PathsWith<R, 'GET'>,
  F extends FieldsOf<RouteAt<R, P, 'GET'>> = never,
  V extends ViewsOf<RouteAt<R, P, 'GET'>> = never,
>(
  path: P,
  ...options: OptionsArg<
    OptionsRequiredOf<RouteAt<R, P, 'GET'>, P, 'GET'>,
    TypedCallOptions<RouteAt<R, P, 'GET'>, P, 'GET', F, V> & PagingOptions
  >
) => AsyncIterableIterator<ItemsOf<ResultOf<RouteAt<R, P, 'GET'>, F, V>>>;

/**
 * `paginate` of an untyped client.
 *
 * @category Client
 */
export type UntypedPaginate = <T = unknown>(
  path: string,
  options?: CallOptions & PagingOptions,
) => AsyncIterableIterator<T>;

/**
 * The methods of one kind of answer: `get`, `post`, `put`, `patch`, `delete`.
 *
 * @category Client
 */
export interface ClientMethods<R, Raw extends boolean> {
  /** GET: reads; answered from the cache on 304. */
  get: MethodOf<R, 'GET', Raw>;
  /** POST: creates (retried on 429 and 503 only with `idempotent: true`). */
  post: MethodOf<R, 'POST', Raw>;
  /** PUT: replaces, with `If-Match` after a read. */
  put: MethodOf<R, 'PUT', Raw>;
  /** PATCH: changes, with `If-Match` after a read. */
  patch: MethodOf<R, 'PATCH', Raw>;
  /** DELETE: removes, with `If-Match` after a read. */
  delete: MethodOf<R, 'DELETE', Raw>;
}

/**
 * A client of one service: each method resolves to the response body, `raw` to the whole
 * response, and failures reject with an `ApiResponseError`. `Routes` is the service's route
 * table type (`typeof routes`, or path → method → settings); without it the client is untyped.
 *
 * @category Client
 */
export interface Client<Routes = unknown> extends ClientMethods<RoutesOf<Routes>, false> {
  /** The same methods, resolving to `{ status, headers, body, cached }`. */
  readonly raw: ClientMethods<RoutesOf<Routes>, true>;
  /** Every item of a list, page after page, up to the caps (spec 2.8). */
  paginate: unknown extends Routes ? UntypedPaginate : TypedPaginate<RoutesOf<Routes>>;
  /** Any method on any path, untyped. */
  request(method: string, path: string, options?: CallOptions): Promise<ClientResponse>;
  /**
   * Begins a user's sign-in in a browser (authorization code with PKCE; needs
   * `oauth.redirectUri`): resolves to the authorization server's URL to send the user to.
   */
  beginSignIn(options?: SignInOptions): Promise<string>;
  /**
   * Completes the sign-in when the user comes back to the redirect URI: `callbackUrl` is that
   * page's URL (`location.href`). The tokens are kept in memory, and refreshed as needed.
   */
  completeSignIn(callbackUrl: string | URL): Promise<void>;
}

const callKeys = new Set([
  'params',
  'query',
  'body',
  'fields',
  'view',
  'headers',
  'signal',
  'idempotent',
  'style',
  'size',
  'maxPages',
  'maxItems',
  'items',
  'links',
]);

/** The call of `method` on `path` with `options`. */
function callOf(state: ClientState, method: string, path: string, options: CallOptions = {}) {
  for (const key of Object.keys(options)) {
    if (!callKeys.has(key)) {
      throw new TypeError(
        `${method} ${path}: unknown option "${key}"; a call takes ${[...callKeys].join(', ')}.`,
      );
    }
  }
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`${method}: the path must start with "/"; got "${String(path)}".`);
  }
  const url = withQuery(
    state.base + expandPath(path, options.params),
    options.query,
    options.fields,
    options.view,
  );
  return {
    method,
    template: path,
    url,
    body: options.body,
    headers: options.headers,
    signal: options.signal,
    idempotent: options.idempotent,
  };
}

/**
 * Makes a client of the service at `baseUrl`. Give it the service's route table type
 * (`createClient<typeof routes>(…)`) and its paths, parameters, query, bodies and responses are
 * typed from the routes' schemas, with `fields` narrowing the result.
 *
 * @example
 * ```ts
 * import { createClient } from 'api-conventions/client';
 * const client = createClient({
 *   baseUrl: 'https://books.example.com',
 *   oauth: { clientId: 'demo-client', clientSecret: 'demo-secret', username: 'alice', password: 'wonderland' },
 * });
 * const book = await client.get('/v1/books/:id', { params: { id: 'emma' } });
 * ```
 *
 * @category Client
 *
 * @see [Client](../../docs/client.md): paging, rate limits, ETags, tokens, types and browsers.
 */
export function createClient<Routes = unknown>(options: ClientOptions): Client<Routes> {
  const state = resolveClientOptions(options);
  const raw = (method: ClientMethod) => (path: string, call?: CallOptions) =>
    send(state, callOf(state, method, path, call));
  const body = (method: ClientMethod) => async (path: string, call?: CallOptions) =>
    (await send(state, callOf(state, method, path, call))).body;
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  const signIn = () => {
    if (state.tokens === undefined || !state.signIn) {
      throw new TypeError(
        'createClient(): signing users in needs oauth with a redirectUri (and the clientId registered with it).',
      );
    }
    return state.tokens;
  };
  const client = {
    raw: Object.fromEntries(methods.map((m) => [m.toLowerCase(), raw(m)])),
    paginate: (path: string, call: CallOptions & PagingOptions = {}) =>
      paginate(state, callOf(state, 'GET', path, call), call),
    request: (method: string, path: string, call?: CallOptions) =>
      send(state, callOf(state, method.toUpperCase(), path, call)),
    beginSignIn: async (options?: SignInOptions) => signIn().beginSignIn(options),
    completeSignIn: async (url: string | URL) => signIn().completeSignIn(url),
    ...Object.fromEntries(methods.map((m) => [m.toLowerCase(), body(m)])),
  };
  return client as unknown as Client<Routes>;
}
