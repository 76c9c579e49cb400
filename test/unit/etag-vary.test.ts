/**
 * Version tags (a route's `resourceVersion`) that change with everything that changes the body
 * (RFC 9110 §8.8.3): the links a caller may follow, and the API version chosen.
 */
import { describe, expect, it } from 'vitest';
import {
  caching,
  conventions,
  defineResource,
  hasScopes,
  type Identity,
  type Plugin,
  payloads,
  type RequestContext,
  type ResourceOptions,
} from '../../src/index.ts';
import { headerIdentity, updateLink } from './_header-identity.ts';

type Book = { id: string; ownerId: string };
const book: Book = { id: 'emma', ownerId: 'alice' };
const links: ResourceOptions<Book>['links'] = {
  self: { method: 'GET', href: (b) => `/v1/books/${b.id}` },
  update: updateLink,
};

function api(options: Partial<ResourceOptions<Book>> = {}) {
  const resource = defineResource<Book>({ fields: { id: true, ownerId: true }, links, ...options });
  return conventions({
    lint: 'off',
    routes: {
      '/v1/books/:id': {
        GET: {
          handler: () => book,
          config: { resource, resourceVersion: () => ({ version: '7' }) },
        },
      },
    },
    plugins: [headerIdentity, payloads(), caching()],
  });
}

async function get(app: ReturnType<typeof api>, headers: Record<string, string>) {
  const r = await app.handle({
    method: 'GET',
    url: '/v1/books/emma',
    headers: new Headers(headers),
  });
  return { status: r.status, etag: r.headers.etag as string, body: r.body };
}

const reader = { 'x-user': 'bob books:read' };
const writer = { 'x-user': 'alice books:read books:write' };

describe('version tags per caller (RFC 9110 §8.8.3)', () => {
  it('gives callers who see different links different strong tags, by default from their identity', async () => {
    const app = api();
    const bob = await get(app, reader);
    const alice = await get(app, writer);
    expect(bob.etag).toMatch(/^"7\.json~\w+"$/);
    expect(alice.etag).not.toBe(bob.etag);
    expect((await get(app, { ...reader, 'if-none-match': alice.etag })).status).toBe(200);
    expect((await get(app, { ...reader, 'if-none-match': bob.etag })).status).toBe(304);
    expect((await get(app, { ...writer, 'if-none-match': alice.etag })).status).toBe(304);
  });

  it('keeps the tag of a caller across tokens: per-token claims do not count', async () => {
    const app = api();
    const first = await get(app, { ...reader, 'x-claims': '{"jti":"a","iat":1,"exp":9}' });
    const second = await get(app, { ...reader, 'x-claims': '{"jti":"b","iat":2,"exp":10}' });
    expect(second.etag).toBe(first.etag);
  });

  it('tells apart callers whose other claims differ (a role a rule may read)', async () => {
    const app = api();
    const user = await get(app, { ...reader, 'x-claims': '{"role":"user"}' });
    const admin = await get(app, { ...reader, 'x-claims': '{"role":"admin"}' });
    expect(admin.etag).not.toBe(user.etag);
    expect((await get(app, {})).etag).not.toBe(user.etag);
  });

  it('shares a tag between callers of the same linkKey', async () => {
    const app = api({
      linkKey: (ctx: RequestContext) => (hasScopes(ctx.identity, 'books:write') ? 'w' : ''),
    });
    const alice = await get(app, writer);
    const carol = await get(app, { 'x-user': 'carol books:write books:read' });
    expect(carol.etag).toBe(alice.etag);
    expect((await get(app, reader)).etag).toBe('"7.json"');
  });

  it('leaves the tag alone when no link depends on the caller', async () => {
    const app = api({ links: { self: links.self! } });
    expect((await get(app, reader)).etag).toBe('"7.json"');
    expect((await get(app, writer)).etag).toBe('"7.json"');
  });

  it('gives each API version its own tag', async () => {
    const app = api({ links: { self: links.self! } });
    const one = await get(app, { ...reader, 'x-api-version': '1' });
    const two = await get(app, { ...reader, 'x-api-version': '2' });
    expect(two.etag).not.toBe(one.etag);
    expect(
      (await get(app, { ...reader, 'x-api-version': '2', 'if-none-match': one.etag })).status,
    ).toBe(200);
  });

  it('refuses a linkKey that is no function at start-up', () => {
    expect(() => api({ linkKey: 'scopes' as never })).toThrow(/`linkKey` must be a function/);
  });

  it('keys an identity whose claims JSON cannot hold apart from every other', async () => {
    const app = api();
    const odd: Plugin = {
      name: 'odd',
      preParsing(ctx) {
        ctx.identity = {
          subject: 'bob',
          scopes: new Set(['books:read']),
          via: 'test',
          claims: { n: 1n },
        } as Identity;
      },
    };
    const resource = defineResource<Book>({ fields: { id: true, ownerId: true }, links });
    const oddApp = conventions({
      lint: 'off',
      routes: {
        '/v1/books/:id': {
          GET: {
            handler: () => book,
            config: { resource, resourceVersion: () => ({ version: '7' }) },
          },
        },
      },
      plugins: [odd, payloads(), caching()],
    });
    const r = await oddApp.handle({ method: 'GET', url: '/v1/books/emma', headers: new Headers() });
    expect(r.status).toBe(200);
    expect(r.headers.etag).not.toBe((await get(app, reader)).etag);
  });
});

describe('versionTag: hashes of recent queries and link keys are remembered (RFC 9110 §8.8.3)', () => {
  it('gives the tag its hashes give, however often a text recurs and however many there are', async () => {
    const fc = await import('fast-check');
    const { hashBody, versionTag } = await import('../../src/core/caching/etag.ts');
    const expected = (query: string, vary: string) =>
      `"7.json${query === '' ? '' : `-${hashBody(query, 'q').slice(0, 8)}`}${vary === '' ? '' : `~${hashBody(vary, 'c')}`}"`;
    // Short and long texts, many distinct ones (the tables start over at 512), repeated.
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 250, maxLength: 300 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 700 }), (pairs) => {
        for (const [query, vary] of [...pairs, ...pairs]) {
          expect(versionTag('7', 'application/json', false, query, vary)).toBe(
            expected(query, vary),
          );
        }
      }),
      { numRuns: 20 },
    );
  });
});
