/**
 * Typed handlers (`defineRoute`): `ctx.body` and `ctx.valid(part)` are the outputs of the
 * route's Standard Schemas, with zod, valibot and arktype, and the return value is checked
 * against `response`. The `@ts-expect-error` lines fail `npm run typecheck` if the types stop
 * catching those mistakes. In development a value that does not fit `response` is logged once
 * per route and status, never a 500; production skips the check.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RequestInput } from '../../src/host.ts';
import {
  conventions,
  created,
  defineRoute,
  defineRoutes,
  type FieldSchema,
} from '../../src/index.ts';

const book = z.object({ id: z.string(), title: z.string(), year: z.number().int() });
const newBook = z.object({ title: z.string().min(1), year: z.number().int() });

describe('defineRoute: types from the schemas', () => {
  it('types ctx.body, ctx.valid(part) and the return value with zod, valibot and arktype', () => {
    const routes = defineRoutes({
      '/v1/books': {
        POST: defineRoute({ body: newBook, response: { 201: book } }, (ctx) => {
          const title: string = ctx.body.title;
          const year: number = ctx.body.year;
          // @ts-expect-error `titel` is not in the body schema
          ctx.body.titel;
          return created('/v1/books/b1', { id: 'b1', title, year });
        }),
      },
      '/v1/books/:id': {
        GET: defineRoute(
          {
            params: v.object({ id: v.string() }),
            query: type({ 'fields?': 'string' }),
            response: { 200: book },
          },
          (ctx) => {
            const id: string = ctx.valid('params').id;
            const fields: string | undefined = ctx.valid('query').fields;
            // @ts-expect-error a number is not a string
            const wrong: number = ctx.valid('params').id;
            void wrong;
            return { id, title: fields ?? 'Emma', year: 1815 };
          },
        ),
        // @ts-expect-error the response schema wants `year`
        PUT: defineRoute({ response: { 200: book } }, () => ({ id: 'b1', title: 'Emma' })),
      },
    });
    expect(Object.keys(routes)).toEqual(['/v1/books', '/v1/books/:id']);
  });
});

// Field rules type the body when given `as const` (declared beside the table).
const patchFields = {
  title: { type: 'string', required: true },
  year: { type: 'integer' },
} as const satisfies FieldSchema;
const noteFields = {
  text: { type: 'string', required: true },
  tags: { type: 'array' },
} as const satisfies FieldSchema;

describe("a plain table: types from each route's config, without defineRoute", () => {
  it('types handlers inside defineRoutes and conventions with zod, valibot, arktype and field rules', () => {
    const routes = defineRoutes({
      '/v1/books': {
        GET: (ctx) => ({ books: [], hasNext: false, path: ctx.path }),
        POST: {
          config: { body: newBook, response: { 201: book } },
          handler: (ctx) => {
            const title: string = ctx.body.title;
            // @ts-expect-error `titel` is not in the body schema
            ctx.body.titel;
            return created('/v1/books/b1', { id: 'b1', title, year: ctx.body.year });
          },
        },
      },
      '/v1/books/:id': {
        GET: {
          config: { params: v.object({ id: v.string() }), query: type({ 'fields?': 'string' }) },
          handler: (ctx) => {
            const id: string = ctx.valid('params').id;
            const fields: string | undefined = ctx.valid('query').fields;
            // @ts-expect-error a number is not a string
            const wrong: number = ctx.valid('query').fields;
            void wrong;
            return { id, fields };
          },
        },
        PUT: {
          config: { response: { 200: book } },
          // @ts-expect-error the response schema wants `year`
          handler: () => ({ id: 'b1', title: 'Emma' }),
        },
        PATCH: {
          config: { body: patchFields },
          handler: (ctx) => {
            // Field rules type the body too; on PATCH every field is optional.
            const title: string | undefined = ctx.body.title;
            // @ts-expect-error on PATCH the title may be missing
            const sure: string = ctx.body.title;
            void sure;
            return { title, year: ctx.body.year };
          },
        },
      },
      '/v1/notes': {
        POST: {
          config: { body: noteFields },
          handler: (ctx) => {
            const text: string = ctx.body.text;
            const tags: unknown[] | undefined = ctx.body.tags;
            // @ts-expect-error not a field of the rules
            ctx.body.other;
            return { text, tags };
          },
        },
      },
    });
    const api = conventions({
      lint: 'off',
      routes: {
        '/v1/things': {
          POST: {
            config: {
              body: z.object({ name: z.string() }),
              response: { 201: z.object({ id: z.string() }) },
            },
            // @ts-expect-error the response is { id: string }
            handler: (ctx) => {
              const name: string = ctx.body.name;
              return { id: 1, name };
            },
          },
        },
        ...routes,
      },
    });
    expect(api.routes.map((r) => `${r.method} ${r.pattern}`)).toContain('PATCH /v1/books/:id');
  });
});

const req = (method: string, url: string, body?: unknown): RequestInput => ({
  method,
  url,
  headers: new Headers(body === undefined ? {} : { 'content-type': 'application/json' }),
  readBody:
    body === undefined
      ? undefined
      : () => Promise.resolve(new TextEncoder().encode(JSON.stringify(body))),
});

describe('development checks of response values', () => {
  function api(development: boolean, warn: (m: string) => void) {
    return conventions({
      lint: 'off',
      development,
      logger: { error: vi.fn(), warn },
      routes: {
        '/v1/books/:id': {
          // Returns a body without `year`: a handler bug the response schema catches, at
          // compile time in a table (below) and, when types are bypassed, in development.
          GET: {
            // @ts-expect-error the response schema wants `year`
            handler: () => ({ id: 'b1', title: 'Emma' }),
            config: { response: { 200: book } },
          },
        },
      },
    });
  }

  it('logs a value that does not fit once per route and status, and answers as usual', async () => {
    const warn = vi.fn();
    const app = api(true, warn);
    for (let i = 0; i < 3; i++) {
      const res = await app.handle(req('GET', '/v1/books/b1'));
      expect(res.status).toBe(200);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /GET \/v1\/books\/:id answered 200 with a body that does not fit its response schema .*"year"/,
    );
  });

  it('skips the check in production', async () => {
    const warn = vi.fn();
    const res = await api(false, warn).handle(req('GET', '/v1/books/b1'));
    expect(res.status).toBe(200);
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses a response map that is not statuses to Standard Schemas at start-up', () => {
    expect(() =>
      conventions({
        lint: 'off',
        routes: {
          '/v1/x': { GET: { handler: () => ({}), config: { response: { ok: book } as never } } },
        },
      }),
    ).toThrow(/`response` must map statuses/);
  });
});
