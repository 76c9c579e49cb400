/**
 * The `Date`s of a shaped list page: the JSON text is the built-in's (ECMA-262 §25.5.2, spec 2.6),
 * and until that text is written every reader of the page sees the `Date`s the handler gave:
 * later transform hooks, another plugin's serializer, XML, and the development schema check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RequestInput } from '../../src/host.ts';
import {
  conventions,
  defineResource,
  listQuery,
  negotiation,
  type Plugin,
  payloads,
  type RequestContext,
} from '../../src/index.ts';
import { datedValues } from './_projector-property.ts';

const quiet = { error() {}, warn() {} };

const book = defineResource<Record<string, unknown>>({
  fields: {
    id: true,
    at: true,
    author: { name: true, born: true },
    tags: { name: true, since: true },
    meta: true,
  },
  links: {
    self: { method: 'GET', href: (b) => `/v1/books/${String(b.id)}` },
  },
});

/** A service whose list route sends `items` as its page, with the plugins given after payloads. */
function service(items: () => readonly unknown[], plugins: Plugin[] = []) {
  const api = conventions({
    lint: 'off',
    logger: quiet,
    plugins: [payloads({ unknownParameters: 'ignore' }), ...plugins],
    routes: {
      '/v1/books': {
        GET: {
          handler: (ctx: RequestContext) => listQuery(ctx).pageOf(items()),
          config: { list: { name: 'books', maxPerPage: 100 }, resource: book },
        },
      },
    },
  });
  const get = async (query = '', accept = 'application/json') => {
    const input: RequestInput = {
      method: 'GET',
      url: `/v1/books?per_page=100${query}`,
      headers: new Headers({ accept }),
    };
    const res = await api.handle(input);
    return { status: res.status, body: res.body as string, headers: res.headers };
  };
  return get;
}

// The built-in JSON.stringify of the value the transform phase made, Dates and all.
const builtInJson: Plugin = {
  name: 'built-in-json',
  serializers: { 'application/json': (value) => JSON.stringify(value) ?? 'null' },
};

/** What `JSON.stringify` keeps of a value, for comparing a handler's items before and after. */
const snapshot = (value: unknown): string =>
  JSON.stringify(value, function (this: Record<string, unknown>, key) {
    const v = this[key];
    return v instanceof Date ? `Date(${v.getTime()})` : v;
  }) ?? 'undefined';

const selections = fc.constantFrom(
  '',
  '&fields=id,at',
  '&fields=at,author,tags',
  '&fields=author(born),tags(since),meta',
  '&fields=meta,links',
  '&fields=id',
);

describe('a shaped page of Dates', () => {
  it('is the text JSON.stringify gives of the projection of the handler’s items, which stay as they were (property)', async () => {
    let items: readonly unknown[] = [];
    const ours = service(() => items);
    const theirs = service(() => items, [builtInJson]);
    const item = fc.record(
      {
        id: fc.string({ maxLength: 4 }),
        at: datedValues,
        author: fc.record({ name: fc.string({ maxLength: 4 }), born: datedValues }),
        tags: fc.array(fc.record({ name: fc.string({ maxLength: 4 }), since: datedValues }), {
          maxLength: 3,
        }),
        meta: fc.dictionary(
          fc.constantFrom('at', 'list', 'deep'),
          fc.oneof(
            datedValues,
            fc.array(datedValues, { maxLength: 2 }),
            fc.record({ when: datedValues }),
          ),
        ),
        secret: datedValues,
      },
      { requiredKeys: ['id'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 5, arbitrary: item }, { weight: 1, arbitrary: datedValues }), {
          maxLength: 5,
        }),
        selections,
        async (generated, query) => {
          items = generated;
          const before = snapshot(items);
          const sent = await ours(query);
          const wanted = await theirs(query);
          expect(sent.status).toBe(200);
          expect(sent.body).toBe(wanted.body);
          expect(snapshot(items)).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reaches a transform hook after payloads, and another plugin’s serializer, with its Dates', async () => {
    const at = new Date(Date.UTC(2026, 0, 31, 9));
    const seen: unknown[] = [];
    const csv: Plugin = {
      name: 'csv',
      serializers: {
        'text/csv': (value) => {
          const rows = (value as { books: { at: unknown }[] }).books;
          seen.push(...rows.map((row) => row.at));
          return rows.map((row) => String(row.at)).join('\n');
        },
      },
      preSerialization(ctx, out) {
        seen.push(...(out.body as { books: { at: unknown }[] }).books.map((row) => row.at));
        if (ctx.headers.get('accept') === 'text/csv') out.type = 'text/csv';
      },
    };
    const get = service(() => [{ id: 'emma', at }], [csv]);
    const json = await get('&fields=id,at');
    expect(JSON.parse(json.body).books[0].at).toBe('2026-01-31T09:00:00.000Z');
    const text = await get('&fields=id,at', 'text/csv');
    expect(text.body).toBe(String(at));
    expect(seen).toHaveLength(3);
    for (const value of seen) expect(value).toBe(at);
  });

  it('is written in XML as before: each valid Date its RFC 3339 text, an invalid one nil', async () => {
    const items = [
      { id: 'emma', at: new Date(Date.UTC(2026, 0, 31, 9)), meta: { when: new Date(Number.NaN) } },
    ];
    const get = service(() => items, [negotiation({ formats: ['json', 'xml'] })]);
    const xml = await get('&fields=id,at,meta', 'application/xml');
    expect(xml.headers['content-type']).toContain('xml');
    expect(xml.body).toContain('<at>2026-01-31T09:00:00.000Z</at>');
    expect(xml.body).toContain('<when nil="true"></when>');
    const json = await get('&fields=id,at,meta');
    expect(JSON.parse(json.body).books[0]).toMatchObject({
      at: '2026-01-31T09:00:00.000Z',
      meta: { when: null },
    });
  });

  it('fits a development response schema that wants Dates, with no warning', async () => {
    const page = z.object({
      books: z.array(z.object({ id: z.string(), at: z.date() }).partial().passthrough()),
      hasNext: z.boolean(),
    });
    const warnings: string[] = [];
    const api = conventions({
      lint: 'off',
      development: true,
      logger: { ...quiet, warn: (message: string) => warnings.push(message) },
      plugins: [payloads()],
      routes: {
        '/v1/books': {
          GET: {
            handler: (ctx: RequestContext) =>
              listQuery(ctx).pageOf([{ id: 'emma', at: new Date(0) }]),
            config: { list: { name: 'books' }, resource: book, response: { 200: page } },
          },
        },
      },
    });
    const res = await api.handle({ method: 'GET', url: '/v1/books', headers: new Headers() });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body as string).books[0].at).toBe('1970-01-01T00:00:00.000Z');
    expect(warnings).toEqual([]);
  });
});
