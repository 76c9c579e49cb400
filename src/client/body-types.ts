/**
 * The client's types of what a route takes and gives: query, bodies and responses read from a
 * route table's settings (its Standard Schemas and field rules), as `defineRoutes` keeps them,
 * with the result narrowed by `fields`. Types only: nothing here exists at run time.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
// From the one copy of the core, as types only: the client loads nothing of the service side.
import type { FieldSchema, SchemaOutput, SuccessBody } from '#core';
import type {
  OpenApiBody,
  OpenApiBodyRequired,
  OpenApiFields,
  OpenApiQuery,
  OpenApiResult,
  OpenApiRoute,
  OpenApiViews,
} from './openapi-types.ts';
import type { Nothing } from './route-types.ts';
import type { Select, Wire } from './selection-types.ts';
import type { QueryValue } from './url.ts';

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
 * `format` where it answers several formats; an OpenAPI operation's query parameters.
 *
 * @category Client
 */
export type QueryOf<C> =
  C extends OpenApiRoute<infer Op>
    ? OpenApiQuery<Op>
    : (C extends Readonly<Record<'query', infer Q>> ? InputOf<Q> : Nothing) &
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
  C extends OpenApiRoute<infer Op>
    ? OpenApiBody<Op>
    : C extends Readonly<Record<'body', infer B>>
      ? B extends FieldSchema
        ? M extends 'PATCH'
          ? Partial<SchemaOutput<B>>
          : SchemaOutput<B>
        : InputOf<B>
      : unknown;

/**
 * Whether a call must send a body: on an OpenAPI operation, when its request body is required;
 * on a route of a table, a POST, PUT or PATCH with a `body` setting, unless its schema takes
 * `undefined`. PATCH's body is required too, every member of it optional.
 *
 * @category Client
 */
export type BodyRequiredOf<C, M> =
  C extends OpenApiRoute<infer Op>
    ? OpenApiBodyRequired<Op>
    : M extends 'POST' | 'PUT' | 'PATCH'
      ? C extends Readonly<Record<'body', unknown>>
        ? undefined extends BodyOf<C, M>
          ? false
          : true
        : false
      : false;

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
  C extends OpenApiRoute<infer Op>
    ? OpenApiFields<Op>
    : C extends Readonly<Record<'resource', unknown>>
      ? keyof NonNullable<ItemOf<C, ResponseOf<C>>> & string
      : never;

/**
 * The body a call resolves to: the route's `response` for 200-202 as JSON delivers it; on a
 * resource, every member when nothing is selected, only the selected members with `fields`,
 * and as declared (any member may be missing) with `view`.
 *
 * @category Client
 */
export type ResultOf<C, F extends string, V> =
  C extends OpenApiRoute<infer Op>
    ? OpenApiResult<Op, F>
    : C extends Readonly<Record<'resource', unknown>>
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
 * The views a call may ask for (`view`, spec 2.10): those an OpenAPI operation lists, any name
 * on a route of a table.
 *
 * @category Client
 */
export type ViewsOf<C> = C extends OpenApiRoute<infer Op> ? OpenApiViews<Op> : string;
