/** A route's body field rules, added to `RouteConfig` (checked by the pipeline after parsing). */
import type { FieldSchema } from './field-types.ts';
import type { StandardSchemaV1 } from './standard-schema.ts';

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * What the body must be: field rules (`{ title: { type: 'string', required: true } }`; on
     * PATCH every field is optional), or any Standard Schema (zod, valibot, arktype…), whose
     * output becomes `ctx.body`. Every problem is reported at once as a 400. @default no check
     */
    body?: FieldSchema | StandardSchemaV1;
    /**
     * A Standard Schema (zod, valibot, arktype…) the query must fit, given as an object of
     * strings (a repeated name as an array). Its output is `ctx.valid('query')`. @default no check
     */
    query?: StandardSchemaV1;
    /** A Standard Schema the path parameters must fit; its output is `ctx.valid('params')`. @default no check */
    params?: StandardSchemaV1;
    /**
     * A Standard Schema the headers must fit, given as an object of lower-case names; its
     * output is `ctx.valid('headers')`. @default no check
     */
    headers?: StandardSchemaV1;
    /**
     * The Standard Schema of the response body, per status (`{ 200: book, 201: book }`): what
     * {@link defineRoute} checks a handler's return type against, and, in development, what the
     * value a handler returned is checked against (a mismatch is logged once per route and
     * status, never a 500; production skips the check). @default none
     */
    response?: Readonly<Record<number, StandardSchemaV1>>;
    /** Whether unknown body fields are a 400 when `body` is set. @default true */
    rejectUnknownFields?: boolean;
  }
}
