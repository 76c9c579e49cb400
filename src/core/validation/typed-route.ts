/**
 * Typed handlers: a route whose settings hold Standard Schemas gets a context whose `body` and
 * `valid(part)` are the schemas' output types, and a return value checked against `response`.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Reply } from '../http/reply.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { Handler, RouteDefinition, RouteTable } from '../kernel/route-table.ts';
import type { Method, RouteConfig } from '../kernel/route-types.ts';
import type { FieldSchema, FieldType } from './field-types.ts';
import type { RequestPart } from './standard-schema.ts';

/**
 * The output type of a Standard Schema, or `unknown` for anything else (field rules, none).
 *
 * @category Routing
 */
export type SchemaOutput<S> =
  S extends StandardSchemaV1<unknown, infer O>
    ? O
    : S extends FieldSchema
      ? FieldsOutput<S>
      : unknown;

/**
 * A field rule with an `enum`.
 *
 * @category Routing
 */
export interface EnumRule {
  /** The values allowed. */
  readonly enum: readonly (string | number | boolean)[];
}

/**
 * A field rule with a `type`.
 *
 * @category Routing
 */
export interface TypedRule {
  /** The field's type. */
  readonly type: FieldType;
}

/**
 * A field rule with `nullable: true`.
 *
 * @category Routing
 */
export interface NullableRule {
  /** `null` is allowed. */
  readonly nullable: true;
}

/**
 * The value a field `type` admits (a `date-time` stays the string it was sent as).
 *
 * @category Routing
 */
export type FieldTypeValue<T> = T extends 'string' | 'date-time'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'array'
        ? unknown[]
        : T extends 'object'
          ? Record<string, unknown>
          : unknown;

/**
 * The value one field rule admits: its `enum`'s values, else its `type`'s, with `null` when
 * it is `nullable`.
 *
 * @category Routing
 */
export type FieldOutput<R> =
  | (R extends EnumRule
      ? R['enum'][number]
      : R extends TypedRule
        ? FieldTypeValue<R['type']>
        : unknown)
  | (R extends NullableRule ? null : never);

/**
 * The body field rules describe (given `as const`, or inline in a route's `config`): each
 * `required` field present, the others optional (on PATCH every field is optional).
 *
 * @category Routing
 */
export type FieldsOutput<F> = {
  -readonly [K in keyof F as F[K] extends RequiredRule ? K : never]: FieldOutput<F[K]>;
} & {
  -readonly [K in keyof F as F[K] extends RequiredRule ? never : K]?: FieldOutput<F[K]>;
};

/**
 * A field rule with `required: true`.
 *
 * @category Routing
 */
export interface RequiredRule {
  /** The field must be present. */
  readonly required: true;
}

/**
 * The body a `response` map allows on success (200, 201, 202): its schemas' outputs.
 *
 * @category Routing
 */
export type SuccessBody<R> = [R] extends [never]
  ? unknown
  : R extends Readonly<Record<number, unknown>>
    ? { [K in keyof R]: K extends 200 | 201 | 202 ? SchemaOutput<R[K]> : never }[keyof R]
    : unknown;

/**
 * The context of a route declared with {@link defineRoute}: `body` and `valid(part)` typed by
 * the route's schemas.
 *
 * @category Routing
 */
export interface TypedContext<C extends RouteConfig, M = string> extends RequestContext {
  /**
   * The body as the route's `body` schema output it, or as its field rules describe it (every
   * field optional on PATCH); `unknown` without either.
   */
  body: M extends 'PATCH'
    ? C['body'] extends FieldSchema
      ? Partial<SchemaOutput<C['body']>>
      : SchemaOutput<C['body']>
    : SchemaOutput<C['body']>;
  /** The output of the route's schema for `part`: `valid('query')`, `valid('params')`… */
  valid<P extends RequestPart>(part: P): SchemaOutput<C[P]>;
}

/**
 * What a typed handler may return: the `response` schema's output for 200/201/202 (or a reply,
 * or nothing); anything when the route declares no `response`, or when it has a `list` or a
 * `resource` (the handler returns the items, which the response phases page, shape and link
 * into what `response` describes).
 *
 * @category Routing
 */
export type TypedResult<C extends RouteConfig> = [Extract<keyof C, 'list' | 'resource'>] extends [
  never,
]
  ? unknown extends SuccessBody<C['response']>
    ? unknown
    :
        | SuccessBody<C['response']>
        | Reply
        | undefined
        | Promise<SuccessBody<C['response']> | Reply | undefined>
  : unknown;

/**
 * Declares one route with typed handler: the handler's `ctx.body` and `ctx.valid(part)` are the
 * outputs of the Standard Schemas in `config` (zod, valibot, arktype…), and what it returns is
 * checked against the `response` schema of 200, 201 or 202. Put the result in a route table.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { created, defineRoute, defineRoutes } from 'api-conventions';
 *
 * const newBook = z.object({ title: z.string().min(1), year: z.number().int() });
 * const routes = defineRoutes({
 *   '/v1/books': {
 *     POST: defineRoute({ body: newBook }, (ctx) => created(`/v1/books/1`, { title: ctx.body.title })),
 *   },
 * });
 * ```
 *
 * @category Routing
 */
export function defineRoute<const C extends RouteConfig>(
  config: C,
  handler: (ctx: TypedContext<C>) => TypedResult<C>,
): RouteDefinition {
  return { config, handler: handler as (ctx: RequestContext) => unknown };
}

/**
 * One method of a table given to {@link defineRoutes}, typed by the settings it declares: with
 * a `config`, its handler's `ctx.body` and `ctx.valid(part)` are the schemas' outputs and its
 * return value is checked against `response`; without, a plain handler or `{ handler }`.
 *
 * @category Routing
 */
export type TypedEntry<C, M = string> = [C] extends [never]
  ? Handler | RouteDefinition
  : unknown extends C
    ? Handler | RouteDefinition
    : // A table typed as RouteTable already (its settings are any RouteConfig), or a bare
      // handler (nothing to infer a config from): as it is.
      [RouteConfig] extends [C]
      ? Handler | RouteDefinition
      : [C] extends [Handler | RouteDefinition | undefined]
        ? Handler | RouteDefinition
        : [C] extends [RouteConfig]
          ? TypedDefinition<C, M>
          : UntypedDefinition<C>;

/**
 * A method of a table with settings that type its handler.
 *
 * @category Routing
 */
export interface TypedDefinition<C extends RouteConfig, M> {
  /** The route's settings, which type its handler. */
  readonly config: C;
  /** The handler, typed by `config`. */
  readonly handler: (ctx: TypedContext<C, M>) => TypedResult<C>;
}

/**
 * A method of a table whose settings are not a `RouteConfig` (refused at start-up).
 *
 * @category Routing
 */
export interface UntypedDefinition<C> {
  /** The settings. */
  readonly config: C;
  /** The handler. */
  readonly handler: Handler;
}

/**
 * The table {@link defineRoutes} takes: for each path and method, the {@link TypedEntry} of
 * the settings that method declares (`T` is inferred from the table: path → method → config).
 *
 * @category Routing
 */
export type TypedRoutes<T> = {
  [P in keyof T]: {
    [M in keyof T[P]]: M extends Method
      ? TypedEntry<T[P][M], M>
      : // The type-only record of a table from defineRoutes (TypedTable's `~routes`).
        M extends 'types'
        ? unknown
        : never;
  };
};

/**
 * Declares a route table with its types checked: each handler with a `config` is typed by it,
 * as {@link defineRoute} types one (`ctx.body`, `ctx.valid('query')`… are the schemas' outputs,
 * the return value is checked against `response`), with no cast; returns it unchanged.
 *
 * @example
 * ```ts
 * import {
 *   conventions,
 *   created,
 *   defineRoutes,
 *   listOf,
 *   noContent,
 *   notFound,
 *   type RequestContext,
 * } from 'api-conventions';
 * import { z } from 'zod';
 *
 * const book = z.object({ id: z.string(), title: z.string(), year: z.number().int() });
 * const newBook = book.omit({ id: true });
 * const books = new Map<string, z.infer<typeof book>>();
 *
 * const routes = defineRoutes({
 *   '/v1/books': {
 *     GET: () => listOf('books', [...books.values()], { hasNext: false }),
 *     POST: {
 *       config: { body: newBook, response: { 201: book } },
 *       handler: (ctx) => {
 *         const { title, year } = ctx.body; // typed by newBook: { title: string; year: number }
 *         const added = { id: crypto.randomUUID(), title, year };
 *         books.set(added.id, added);
 *         return created(`/v1/books/${added.id}`, added);
 *       },
 *     },
 *   },
 *   // A handler of another path takes its type, or the table's inference stops.
 *   '/v1/books/:id': {
 *     GET: (ctx: RequestContext) => {
 *       const found = books.get(ctx.param('id'));
 *       if (found === undefined) throw notFound(`No book "${ctx.param('id')}".`);
 *       return found;
 *     },
 *     DELETE: (ctx: RequestContext) => {
 *       books.delete(ctx.param('id'));
 *       return noContent();
 *     },
 *   },
 * });
 * const api = conventions({ routes });
 * ```
 *
 * @category Start here
 */
export function defineRoutes<const T extends Readonly<Record<string, object>>>(
  table: TypedRoutes<T>,
): TypedTable<T> {
  return table as TypedTable<T>;
}

/**
 * A route table that keeps, for the type checker only, what each of its routes declares (path →
 * method → settings): `api-conventions/client` reads a service's paths, parameters, bodies and
 * responses from it (`createClient<typeof routes>()`). At run time it is the table, nothing more.
 *
 * @category Routing
 */
export type TypedTable<T> = RouteTable & RouteTypes<T>;

/**
 * The settings a {@link TypedTable} keeps for the type checker; never present at run time.
 *
 * @category Routing
 */
export interface RouteTypes<T> {
  /** Never set: a type-only record of path → method → settings. */
  readonly '~routes'?: RouteTypesRecord<T>;
}

/**
 * What {@link RouteTypes} holds.
 *
 * @category Routing
 */
export interface RouteTypesRecord<T> {
  /** Path → method → settings. */
  readonly types: T;
}
