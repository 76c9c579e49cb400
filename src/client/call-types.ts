/**
 * The options of one call: typed from a route (its parameters, query, body and selection), or
 * untyped. Types only: nothing here exists at run time.
 */
import type { BodyOf, BodyRequiredOf, QueryOf } from './body-types.ts';
import type { OpenApiPathParams, OpenApiRoute } from './openapi-types.ts';
import type { Nothing, ParamsOf } from './route-types.ts';
import type { QueryValue } from './url.ts';

/**
 * The options of one typed call: `params` the template names, the route's `query`, its `body`
 * (required where the route requires one), the members to select.
 *
 * @category Client
 */
export type TypedCallOptions<C, P extends string, M, F extends string, V> = CommonCallOptions &
  (Nothing extends PathParamsOf<C, P>
    ? Partial<ParamsPart<PathParamsOf<C, P>>>
    : ParamsPart<PathParamsOf<C, P>>) &
  SelectionParts<QueryOf<C>, F, V> &
  (M extends 'GET' | 'DELETE'
    ? Nothing
    : BodyRequiredOf<C, M> extends true
      ? BodyPart<BodyOf<C, M>>
      : Partial<BodyPart<BodyOf<C, M>>>);

/**
 * The path parameters of a call: an OpenAPI operation's, as its document types them; the
 * template's names otherwise (`:id` or `{id}`, a string or a number).
 *
 * @category Client
 */
export type PathParamsOf<C, P extends string> =
  C extends OpenApiRoute<infer Op> ? OpenApiPathParams<Op, P> : ParamsOf<P>;

/**
 * Whether a call needs its options: when the path has parameters or the route requires a body.
 *
 * @category Client
 */
export type OptionsRequiredOf<C, P extends string, M> =
  Nothing extends PathParamsOf<C, P>
    ? M extends 'GET' | 'DELETE'
      ? false
      : BodyRequiredOf<C, M>
    : true;

/**
 * The parameters of a typed call.
 *
 * @category Client
 */
export interface ParamsPart<T> {
  /** The values of the template's `:name` parameters. */
  params: T;
}

/**
 * The body of a typed call.
 *
 * @category Client
 */
export interface BodyPart<T> {
  /** The body the route takes. */
  body: T;
}

/**
 * The query and selection of a typed call.
 *
 * @category Client
 */
export interface SelectionParts<Q, F extends string, V> {
  /** The route's query parameters. */
  query?: Q;
  /** The members to select (`fields=id,title`, spec 2.10): the result has exactly those. */
  fields?: readonly F[];
  /** The response group (`view=small`, spec 2.10). */
  view?: V;
}

/**
 * What every call may add: headers, an abort signal, and whether a write may be retried.
 *
 * @category Client
 */
export interface CommonCallOptions {
  /** Headers of this call (they replace the client's of the same name). */
  headers?: Record<string, string>;
  /** Ends the call, and any wait, when it aborts. */
  signal?: AbortSignal;
  /**
   * Retry this call on 429 and 503 even if its method is not idempotent (a POST with an
   * `Idempotency-Key`). @default true for GET, HEAD, OPTIONS, PUT and DELETE
   */
  idempotent?: boolean;
}

/**
 * The options of a call on an untyped client.
 *
 * @category Client
 */
export interface CallOptions extends CommonCallOptions {
  /** The values of the template's `:name` parameters. */
  params?: Readonly<Record<string, string | number>>;
  /** Query parameters; arrays are sent comma-separated. */
  query?: Readonly<Record<string, QueryValue>>;
  /** The body: JSON unless it is a string, a form, a blob or bytes. */
  body?: unknown;
  /** The members to select (`fields=id,title`, spec 2.10). */
  fields?: readonly string[] | string;
  /** The response group (`view=small`, spec 2.10). */
  view?: string;
}
