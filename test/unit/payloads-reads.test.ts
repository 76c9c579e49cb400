/**
 * The list request and selection a query string reads as are kept per route for the strings
 * sent again (spec 4.4, 2.10): these tests hold the kept reading to a fresh one.
 */
import { describe, expect, it } from 'vitest';
import type { RequestInput } from '../../src/host.ts';
import {
  conventions,
  defineResource,
  type ListQuery,
  listQuery,
  pageArray,
  payloads,
  type RequestContext,
} from '../../src/index.ts';

const quiet = { error() {}, warn() {} };
const all = Array.from({ length: 30 }, (_, i) => ({
  id: `b${String(i).padStart(2, '0')}`,
  title: `Title ${i % 4}`,
  year: 2000 + (i % 3),
  at: new Date(Date.UTC(2020, 0, 1 + i)),
}));
const book = defineResource({ fields: { id: true, title: true, year: true, at: true } });

function make() {
  const seen: ListQuery[] = [];
  const api = conventions({
    lint: 'off',
    logger: quiet,
    plugins: [payloads()],
    routes: {
      '/v1/books': {
        GET: {
          handler: (ctx: RequestContext) => {
            seen.push(listQuery(ctx));
            return pageArray(ctx, all);
          },
          config: {
            list: { name: 'books', filters: { year: 'integer', at: 'date-time' }, sort: ['title'] },
            resource: book,
          },
        },
      },
    },
  });
  const get = async (query: string) => {
    const input: RequestInput = {
      method: 'GET',
      url: `/v1/books?${query}`,
      headers: new Headers(),
    };
    const res = await api.handle(input);
    return { status: res.status, body: JSON.parse(res.body as string) };
  };
  return { get, seen };
}

const ids = (body: { books: { id: string }[] }) => body.books.map((b) => b.id);

describe('query strings read again (spec 4.4, 2.10)', () => {
  it('answers a query sent again exactly as the first time, and another query by its own values', async () => {
    const { get } = make();
    const first = await get('per_page=3&page=2&fields=id,year');
    const again = await get('per_page=3&page=2&fields=id,year');
    expect(again).toEqual(first);
    expect(ids(first.body)).toEqual(['b03', 'b04', 'b05']);
    expect(Object.keys(first.body.books[0])).toEqual(['id', 'year']);
    const other = await get('per_page=2&page=2&sort=-title&fields=title');
    expect(other.body.books).toEqual([{ title: 'Title 3' }, { title: 'Title 3' }]);
    expect(await get('per_page=3&page=2&fields=id,year')).toEqual(first);
  });

  it('never keeps a query that reads wrong: it is refused each time', async () => {
    const { get } = make();
    for (let i = 0; i < 3; i++) {
      const res = await get('per_page=0');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain('per_page');
    }
    const unknown = await get('fields=id,nope');
    expect(unknown.status).toBe(400);
    expect((await get('fields=id,nope')).status).toBe(400);
  });

  it('shares a kept list request frozen, and never one that holds a Date', async () => {
    const { get, seen } = make();
    await get('per_page=5&year=2001');
    await get('per_page=5&year=2001');
    expect(seen[1]).toBe(seen[0]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(Object.isFrozen(seen[0]!.filters)).toBe(true);
    expect(() => {
      (seen[0]!.sort as unknown[]).push('x');
    }).toThrow(TypeError);
    const at = 'at=2020-01-05T00:00:00Z';
    const dated = await get(at);
    expect(ids(dated.body)).toEqual(['b04']);
    await get(at);
    expect(seen[3]).not.toBe(seen[2]);
    expect(seen[3]!.filters.at).not.toBe(seen[2]!.filters.at);
    expect(Object.isFrozen(seen[2])).toBe(false);
  });

  it('reads right past the number of strings it keeps', async () => {
    const { get } = make();
    for (let i = 0; i < 600; i++) {
      const size = 1 + (i % 7);
      const page = 1 + (i % 5);
      const res = await get(`per_page=${size}&page=${page}&x${i % 300}=`);
      // An unknown parameter is a typo only when it is near a known one: these are ignored.
      expect(res.status).toBe(200);
      const start = (page - 1) * size;
      expect(ids(res.body)).toEqual(all.slice(start, start + size).map((b) => b.id));
    }
  });
});
