/**
 * The JSON text of a versioned read, sent again while its version, its request and its handler's
 * value are the same (`caching({ reuseText })`). A route's `resourceVersion` promises that its
 * representation changes only with it (RFC 9110 §8.8.3, a strong validator): these tests show
 * where the library relies on that promise, and everywhere it does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextReuse } from '../../src/core/pipeline/reuse.ts';
import {
  caching,
  conventions,
  defineResource,
  type Plugin,
  pageArray,
  payloads,
  type RequestContext,
} from '../../src/index.ts';
import { headerIdentity, updateLink } from './_header-identity.ts';

type Book = { id: string; title: string; year: number; added?: Date };

function shelf(): Book[] {
  return [
    { id: 'emma', title: 'Emma', year: 1815, added: new Date('2026-01-01T00:00:00Z') },
    { id: 'persuasion', title: 'Persuasion', year: 1817 },
  ];
}

const resource = defineResource<Book>({
  fields: { id: true, title: true, year: true, added: true },
  links: {
    self: { method: 'GET', href: (b, ctx) => `${ctx.scheme}://${ctx.host}/v1/books/${b.id}` },
    update: updateLink,
  },
});

interface Setup {
  books?: Book[];
  version?: () => string;
  handler?: (ctx: RequestContext) => unknown;
  item?: (ctx: RequestContext) => unknown;
  plugins?: Plugin[];
  reuseText?: boolean;
  etag?: 'strong' | 'weak';
}

function service(setup: Setup = {}) {
  const books = setup.books ?? shelf();
  const version = setup.version ?? (() => '7');
  return conventions({
    lint: 'off',
    routes: {
      '/v1/books': {
        GET: {
          handler: setup.handler ?? ((ctx) => pageArray(ctx, books)),
          config: {
            list: { name: 'books' },
            resource,
            resourceVersion: () => ({ version: version() }),
            ...(setup.etag === undefined ? {} : { etag: setup.etag }),
          },
        },
      },
      '/v1/books/:id': {
        GET: {
          handler: setup.item ?? ((ctx) => books.find((b) => b.id === ctx.param('id'))),
          config: { resource, resourceVersion: () => ({ version: version() }) },
        },
      },
    },
    plugins: [
      headerIdentity,
      payloads(),
      caching(setup.reuseText === undefined ? {} : { reuseText: setup.reuseText }),
      ...(setup.plugins ?? []),
    ],
  });
}

async function get(
  app: ReturnType<typeof service>,
  url = '/v1/books',
  headers: Record<string, string> = {},
) {
  const r = await app.handle({
    method: 'GET',
    url,
    headers: new Headers({ host: 'api.example.com', ...headers }),
  });
  expect(r.status).toBe(200);
  return { text: r.body as string, json: JSON.parse(r.body as string), etag: r.headers.etag };
}

describe('the text of a versioned read, sent again (RFC 9110 §8.8.3)', () => {
  it('sends the same text while the version names the same objects, and a new one with a new version', async () => {
    const books = shelf();
    let version = 1;
    const app = service({ books, version: () => String(version) });
    const first = await get(app);
    // A change that does not move the version breaks the route's promise: the text it named is
    // what goes out, as a 304 would have told a client holding it.
    books[0]!.title = 'Emma (changed in place)';
    const again = await get(app);
    expect(again.text).toBe(first.text);
    expect(again.etag).toBe(first.etag);
    version++;
    const changed = await get(app);
    expect(changed.json.books[0].title).toBe('Emma (changed in place)');
    expect(changed.etag).not.toBe(first.etag);
  });

  it('writes a new text for a handler value that differs, under the same version', async () => {
    let served = 0;
    const app = service({ item: () => ({ id: 'emma', title: `Emma ${++served}`, year: 1815 }) });
    const titles = [];
    for (let i = 0; i < 3; i++) titles.push((await get(app, '/v1/books/emma')).json.title);
    expect(titles).toEqual(['Emma 1', 'Emma 2', 'Emma 3']);
  });

  it('writes a new text for a list that gained an item or a changed Date, under the same version', async () => {
    const books = shelf();
    const app = service({
      handler: (ctx) =>
        pageArray(
          ctx,
          books.map((b) => ({ ...b })),
        ),
    });
    expect((await get(app)).json.books).toHaveLength(2);
    books.push({ id: 'sanditon', title: 'Sanditon', year: 1817 });
    expect((await get(app)).json.books).toHaveLength(3);
    books[0]!.added = new Date('2026-02-02T00:00:00Z');
    expect((await get(app)).json.books[0].added).toBe('2026-02-02T00:00:00.000Z');
  });

  it('keeps one text per page, query, caller and host', async () => {
    const app = service();
    const one = await get(app, '/v1/books?per_page=1');
    const two = await get(app, '/v1/books?per_page=1&page=2');
    expect(one.json.books[0].id).toBe('emma');
    expect(two.json.books[0].id).toBe('persuasion');
    expect((await get(app, '/v1/books?per_page=1')).text).toBe(one.text);

    const reader = { 'x-user': 'bob books:read' };
    const writer = { 'x-user': 'alice books:read books:write' };
    for (let i = 0; i < 2; i++) {
      const rels = (h: Record<string, string>) =>
        get(app, '/v1/books/emma', h).then((r) => r.json.links.map((l: { rel: string }) => l.rel));
      expect(await rels(reader)).toEqual(['self']);
      expect(await rels(writer)).toEqual(['self', 'update']);
    }

    for (const host of ['api.example.com', 'mirror.example.org', 'api.example.com']) {
      const { json } = await get(app, '/v1/books/emma', { host });
      expect(json.links[0].href).toBe(`http://${host}/v1/books/emma`);
    }
  });

  it('writes each text anew where the service says so, or a hook of its own may add to it', async () => {
    const stamp: Plugin = {
      name: 'stamp',
      preSerialization(_ctx, out) {
        if (typeof out.body === 'object' && out.body !== null) {
          out.body = { ...(out.body as object), stampedAt: ++stamped };
        }
      },
    };
    let stamped = 0;
    const cases: Setup[] = [{ reuseText: false }, { etag: 'weak' }, { plugins: [stamp] }];
    for (const setup of cases) {
      const books = shelf();
      const app = service({ ...setup, books });
      await get(app);
      books[0]!.title = 'Emma (changed in place)';
      expect((await get(app)).json.books[0].title, JSON.stringify(setup.reuseText)).toBe(
        'Emma (changed in place)',
      );
    }
    expect(stamped).toBe(2);
  });

  it('refuses a reuseText that is not true or false, at start-up', () => {
    expect(() => caching({ reuseText: 'yes' as never })).toThrow(
      /caching\(\) reuseText must be true or false/,
    );
  });
});

describe('when two handler values are the same', () => {
  const name = { key: 'name', details: [] };
  const n = { key: 'n', details: [''] };
  // Plain data: what JSON.stringify writes the same for equal values, Dates among it.
  const { letrec } = fc;
  const tree = letrec((tie) => ({
    leaf: fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom(0, -0, 0.5, Number.NaN, null, true, false, undefined),
      fc.date({ min: new Date(0), max: new Date(3), noInvalidDate: false }),
    ),
    node: fc.oneof(
      { maxDepth: 4 },
      tie('leaf'),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'toJSON'), tie('node'), { maxKeys: 3 }),
    ),
  })).node;

  /** A copy with fresh objects and `Date`s, or the same values: what the next request may give. */
  function copy(value: unknown): unknown {
    if (value instanceof Date) return new Date(value.getTime());
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value === 'object' && value !== null) {
      const members = Object.entries(value).map(([k, v]) => [k, copy(v)]);
      return Object.setPrototypeOf(Object.fromEntries(members), Object.getPrototypeOf(value));
    }
    return value;
  }

  it('sends a kept text only for a value JSON.stringify writes the same (fast-check, 500 runs)', () => {
    fc.assert(
      fc.property(tree, tree, fc.boolean(), (a, other, copied) => {
        const b = copied ? copy(a) : other;
        const reuse = new TextReuse();
        const text = JSON.stringify(a) ?? 'null';
        reuse.keep(name, a, text);
        const found = reuse.find(name, b);
        if (found !== undefined) expect(found).toBe(JSON.stringify(b) ?? 'null');
        // A copy member by member is recognised, unless it holds what is never equal to itself
        // (NaN, an invalid Date) or a `toJSON` member.
        if (copied && recognisable(a)) expect(found).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  function recognisable(value: unknown): boolean {
    if (typeof value === 'number') return !Number.isNaN(value);
    if (value instanceof Date) return !Number.isNaN(value.getTime());
    if (Array.isArray(value)) return value.every(recognisable);
    if (typeof value === 'object' && value !== null) {
      return !('toJSON' in value) && Object.values(value).every(recognisable);
    }
    return true;
  }

  it('tells apart Dates, member order and arrays with a toJSON of their own', () => {
    const reuse = new TextReuse();
    const keep = (value: unknown) => reuse.keep(n, value, JSON.stringify(value));
    keep({ at: new Date(1) });
    expect(reuse.find(n, { at: new Date(1) })).toBe('{"at":"1970-01-01T00:00:00.001Z"}');
    expect(reuse.find(n, { at: new Date(2) })).toBeUndefined();
    keep({ a: 1, b: 2 });
    expect(reuse.find(n, { b: 2, a: 1 })).toBeUndefined();
    const list = Object.assign([1], { toJSON: () => 'mine' });
    keep([1]);
    expect(reuse.find(n, list)).toBeUndefined();
    expect(reuse.find({ key: 'n', details: ['x'] }, [1])).toBeUndefined();
  });
});
