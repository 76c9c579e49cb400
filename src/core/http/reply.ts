/** Success replies by method as plain data (spec 4.3): 200, 201 + Location, 202 + Location, 204. */
import { HeaderBag, type HeaderInit } from './headers.ts';

const brand = Symbol.for('api-conventions.Reply');

/**
 * What a handler returns when the default (200 with the returned value as JSON) is not the
 * right answer. Build it with {@link ok}, {@link created}, {@link accepted} or {@link noContent}.
 *
 * @category Replies and HTTP
 */
export interface Reply<T = unknown> {
  /** Marks a reply, so a handler's plain data is never mistaken for one. */
  readonly [brand]: true;
  /** The success status. */
  status: number;
  /** Headers of this reply: `set`, `append` and `vary` add to them. */
  headers: HeaderBag;
  /** The data to serialize; `undefined` for no body. */
  body: T | undefined;
}

function reply<T>(status: number, body: T | undefined, headers: HeaderInit | undefined): Reply<T> {
  return { [brand]: true, status, headers: new HeaderBag(headers), body };
}

/**
 * Tells whether a handler's result is a {@link Reply} rather than plain data.
 *
 * @category Replies and HTTP
 */
export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && (value as Reply)[brand] === true;
}

function withLocation<T>(r: Reply<T>, location: string): Reply<T> {
  r.headers.set('location', location);
  return r;
}

/**
 * 200 with the data: the answer to GET, and to PUT or PATCH with the changed resource (spec 4.3).
 * Returning the data itself from a handler does the same.
 *
 * @example
 * ```ts
 * import { ok, type RequestContext } from 'api-conventions';
 *
 * const getBook = (ctx: RequestContext) =>
 *   ok({ id: ctx.param('id'), title: 'Emma' }, { 'cache-control': 'max-age=60' }); // 200, with a header
 * ```
 *
 * @category Start here
 */
export function ok<T>(data: T, headers?: HeaderInit): Reply<T> {
  return reply(200, data, headers);
}

/**
 * 201 with the created resource and its `Location` (spec 4.3, RFC 9110 §15.3.2).
 *
 * @example
 * ```ts
 * import { conventions, created, type RequestContext } from 'api-conventions';
 *
 * const createBook = (ctx: RequestContext) => {
 *   const book = { id: crypto.randomUUID(), ...(ctx.body as { title: string }) };
 *   return created(`/v1/books/${book.id}`, book); // 201 with Location: /v1/books/…
 * };
 * const api = conventions({ routes: { '/v1/books': { POST: createBook } } });
 * ```
 *
 * @category Start here
 */
export function created<T>(location: string, data: T, headers?: HeaderInit): Reply<T> {
  return withLocation(reply(201, data, headers), location);
}

/**
 * 202: accepted for asynchronous processing, with the `Location` of a status resource the
 * client can poll (spec 4.3, RFC 9110 §15.3.3).
 *
 * @example
 * ```ts
 * import { accepted, type RequestContext } from 'api-conventions';
 *
 * const startImport = (ctx: RequestContext) => {
 *   const id = crypto.randomUUID();
 *   void ctx.body; // queue the work with its body here
 *   return accepted(`/v1/book-imports/${id}`, { id, status: 'pending' }); // 202 + Location
 * };
 * ```
 *
 * @category Start here
 */
export function accepted<T>(location: string, data?: T, headers?: HeaderInit): Reply<T> {
  return withLocation(reply(202, data, headers), location);
}

/**
 * 204 with an empty body: the answer to DELETE (spec 4.3).
 *
 * @example
 * ```ts
 * import { noContent, type RequestContext } from 'api-conventions';
 *
 * const books = new Map([['emma', { id: 'emma' }]]);
 * const deleteBook = (ctx: RequestContext) => {
 *   books.delete(ctx.param('id'));
 *   return noContent(); // 204, no body
 * };
 * ```
 *
 * @category Start here
 */
export function noContent(headers?: HeaderInit): Reply<never> {
  return reply<never>(204, undefined, headers);
}
