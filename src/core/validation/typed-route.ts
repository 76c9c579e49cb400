/**
 * Typed handlers: a route whose settings hold Standard Schemas gets a context whose `body` and
 * `valid(part)` are the schemas' output types, and a return value checked against `response`.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Reply } from '../http/reply.ts';
import type { RequestContext } from '../pipeline/context.ts';
import type { RouteDefinition } from '../routing/table.ts';
import type { RouteConfig } from '../routing/types.ts';
import type { RequestPart } from './standard-schema.ts';

/**
 * The output type of a Standard Schema, or `unknown` for anything else (field rules, none).
 *
 * @category Routing
 */
export type SchemaOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;

/**
 * The body a `response` map allows on success (200, 201, 202): its schemas' outputs.
 *
 * @category Routing
 */
export type SuccessBody<R> =
  R extends Readonly<Record<number, unknown>>
    ? { [K in keyof R]: K extends 200 | 201 | 202 ? SchemaOutput<R[K]> : never }[keyof R]
    : unknown;

/**
 * The context of a route declared with {@link defineRoute}: `body` and `valid(part)` typed by
 * the route's schemas.
 *
 * @category Routing
 */
export interface TypedContext<C extends RouteConfig> extends RequestContext {
  /** The body as the route's `body` schema output it (`unknown` without a Standard Schema). */
  body: SchemaOutput<C['body']>;
  /** The output of the route's schema for `part`: `valid('query')`, `valid('params')`… */
  valid<P extends RequestPart>(part: P): SchemaOutput<C[P]>;
}

/**
 * What a typed handler may return: the `response` schema's output for 200/201/202 (or a reply,
 * or nothing); anything when the route declares no `response`.
 *
 * @category Routing
 */
export type TypedResult<C extends RouteConfig> =
  unknown extends SuccessBody<C['response']>
    ? unknown
    :
        | SuccessBody<C['response']>
        | Reply
        | undefined
        | Promise<SuccessBody<C['response']> | Reply | undefined>;

/**
 * Declares one route with typed handler: the handler's `ctx.body` and `ctx.valid(part)` are the
 * outputs of the Standard Schemas in `config` (zod, valibot, arktype…), and what it returns is
 * checked against the `response` schema of 200, 201 or 202. Put the result in a route table.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
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
