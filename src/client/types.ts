/**
 * The client's types from the service itself: paths, parameters, query, bodies and responses
 * read from a route table's settings (its Standard Schemas and field rules), as
 * `defineRoutes` keeps them. Types only: nothing here exists at run time.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
// From the one copy of the core, as types only: the client loads nothing of the service side.
import type { FieldSchema, RouteTypes, SchemaOutput, SuccessBody } from '#core';
import type { QueryValue } from './url.ts';

/**
 * What a typed client reads a service from: path → method → route settings. A table made by
 * `defineRoutes` carries them (`RoutesOf<typeof routes>` takes them out); a plain object of
 * that shape does too.
 *
 * @category Client
 */
export type RoutesOf<X> = X extends RouteTypes<infer T> ? T : X;

/**
 * No members: what a route without parameters, query or settings declares.
 *
 * @category Client
 */
export type Nothing = Record<never, never>;

/** The methods a client calls. */
export type ClientMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The paths of `R` that have method `M`.
 *
 * @category Client
 */
export type PathsWith<R, M extends ClientMethod> = {
  [P in keyof R]: M extends keyof R[P] ? P : never;
}[keyof R] &
  string;

/**
 * The settings of one route (a bare handler has none), copied member by member: the table's
 * types are inferred through defineRoutes' mapped type, and a conditional type reads the copy's
 * members where it would not read the inferred type's.
 *
 * @category Client
 */
export type SettingsOf<R, P, M> = P extends keyof R
  ? M extends keyof R[P]
    ? R[P][M] extends (...args: never[]) => unknown
      ? Nothing
      : { [K in keyof R[P][M]]: R[P][M][K] }
    : Nothing
  : Nothing;

/**
 * The parameters a route template names: `:id` (or OpenAPI's `{id}`) → `{ id: string | number }`.
 *
 * @category Client
 */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string | number } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string | number }
    : P extends `${string}{${infer Name}}${infer Rest}`
      ? { [K in Name]: string | number } & ParamsOf<Rest>
      : Nothing;

/**
 * What a schema takes as input: a Standard Schema's input type, a field schema's fields.
 *
 * @category Client
 */
export type InputOf<S> =
  S extends StandardSchemaV1<infer I, unknown>
    ? I
    : S extends FieldSchema
      ? SchemaOutput<S>
      : unknown;

/**
 * The paging parameters of a list (spec 4.4).
 *
 * @category Client
 */
export interface PagingQuery {
  /** The page, from 1. */
  page?: number;
  /** Items per page. */
  per_page?: number;
  /** Items per page, with `offset` or a cursor. */
  limit?: number;
  /** Items to skip. */
  offset?: number;
  /** The items after this id or cursor. */
  after?: string;
  /** The items before this id or cursor. */
  before?: string;
  /** The order: `-year,title`. */
  sort?: string;
  /** Ask for the `total` count. */
  total?: boolean;
}

/**
 * The query a list's settings accept: paging, its filters and `q`.
 *
 * @category Client
 */
export type ListQuery<L> = PagingQuery &
  (L extends Partial<Readonly<Record<'filters', infer F>>>
    ? { [K in keyof NonNullable<F>]?: QueryValue }
    : Nothing) &
  (L extends Partial<Readonly<Record<'search', readonly unknown[]>>>
    ? Partial<Record<'q', string>>
    : Nothing);

/**
 * The query parameters of a route: its `query` schema's input, a list's paging and filters, and
 * `format` where it answers several formats.
 *
 * @category Client
 */
export type QueryOf<C> = (C extends Readonly<Record<'query', infer Q>> ? InputOf<Q> : Nothing) &
  (C extends Readonly<Record<'list', infer L>> ? ListQuery<L> : Nothing) &
  (C extends Readonly<Record<'formats', readonly (infer F)[]>>
    ? Partial<Record<'format', F>>
    : Nothing);

/**
 * The body a route takes: its `body` schema's input, or the fields its rules describe (each
 * optional on PATCH).
 *
 * @category Client
 */
export type BodyOf<C, M> =
  C extends Readonly<Record<'body', infer B>>
    ? B extends FieldSchema
      ? M extends 'PATCH'
        ? Partial<SchemaOutput<B>>
        : SchemaOutput<B>
      : InputOf<B>
    : unknown;

/**
 * A value as it arrives in JSON: a `Date` is its RFC 3339 string.
 *
 * @category Client
 */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer E)[]
    ? Wire<E>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/**
 * Every member present, deeply: what a resource sends when no `fields` or `view` selects.
 *
 * @category Client
 */
export type Whole<T> = T extends readonly (infer E)[]
  ? Whole<E>[]
  : T extends object
    ? { [K in keyof T]-?: Whole<Exclude<T[K], undefined>> }
    : T;

/**
 * The success body of a route, as JSON delivers it.
 *
 * @category Client
 */
export type ResponseOf<C> = Wire<
  SuccessBody<C extends Readonly<Record<'response', infer R>> ? R : never>
>;

/**
 * The item of a body: the elements of a list's array member, else the body itself.
 *
 * @category Client
 */
export type ItemOf<C, B> =
  C extends Readonly<Record<'list', unknown>>
    ? { [K in keyof B]-?: B[K] extends readonly (infer E)[] ? E : never }[keyof B]
    : B;

/**
 * The members `fields` may select on a route: those of its item.
 *
 * @category Client
 */
export type FieldsOf<C> =
  C extends Readonly<Record<'resource', unknown>>
    ? keyof NonNullable<ItemOf<C, ResponseOf<C>>> & string
    : never;

/**
 * An item as sent: every member without a selection, the selected ones with one.
 *
 * @category Client
 */
export type Select<E, F extends string> = [F] extends [never]
  ? Whole<E>
  : { [K in F & keyof E]-?: Whole<Exclude<E[K], undefined>> };

/**
 * The body a call resolves to: the route's `response` for 200-202 as JSON delivers it; on a
 * resource, every member when nothing is selected, only the selected members with `fields`,
 * and as declared (any member may be missing) with `view`.
 *
 * @category Client
 */
export type ResultOf<C, F extends string, V> =
  C extends Readonly<Record<'resource', unknown>>
    ? [V] extends [never]
      ? C extends Readonly<Record<'list', unknown>>
        ? {
            [K in keyof ResponseOf<C>]: ResponseOf<C>[K] extends readonly (infer E)[]
              ? Select<E, F>[]
              : ResponseOf<C>[K];
          }
        : Select<ResponseOf<C>, F>
      : ResponseOf<C>
    : ResponseOf<C>;

/**
 * The options of one typed call: `params` the template names, the route's `query`, its `body`,
 * the members to select.
 *
 * @category Client
 */
export type TypedCallOptions<C, P extends string, M, F extends string, V> = CommonCallOptions &
  (Nothing extends ParamsOf<P> ? Partial<ParamsPart<ParamsOf<P>>> : ParamsPart<ParamsOf<P>>) &
  SelectionParts<QueryOf<C>, F, V> &
  (M extends 'GET' | 'DELETE' ? Nothing : Partial<BodyPart<BodyOf<C, M>>>);

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

/** The settings of the route at path `P` for method `M`. */
export type RouteAt<R, P, M> = SettingsOf<R, P, M>;
