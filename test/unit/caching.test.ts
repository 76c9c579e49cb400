import { describe, expect, it } from 'vitest';
import { evaluatePreconditions, parseTags } from '../../src/core/caching/index.ts';
import { currentDate, parseHttpDate } from '../../src/core/http/index.ts';
import {
  type CachingOptions,
  cacheControl,
  caching,
  conventions,
  negotiation,
  noContent,
  type RequestContext,
} from '../../src/index.ts';

describe('cacheControl (spec 4.7)', () => {
  it.each([
    [{ public: true, maxAge: 60 }, 'public, max-age=60'],
    ['private, no-cache', 'private, no-cache'],
    ['NO-STORE', 'no-store'],
    [{ noStore: true, noTransform: true }, 'no-store, no-transform'],
    [
      'public, s-maxage=30, proxy-revalidate, must-revalidate',
      'public, must-revalidate, proxy-revalidate, s-maxage=30',
    ],
  ])('builds %j as %s', (policy, text) => {
    expect(cacheControl(policy)).toBe(text);
  });

  it.each([
    ['public, private', /contradict/],
    [{ noStore: true, maxAge: 5 }, /contradict/],
    ['no-store, no-cache', /contradict/],
    ['private, s-maxage=5', /contradict/],
    ['immutable', /not a directive/],
    ['max-age', /seconds/],
    ['max-age=-1', /seconds/],
    ['no-cache=5', /takes no value/],
    ['no-cache, no-cache', /twice/],
    [{ maxAge: 1.5 }, /whole number/],
    [{ maxage: 1 }, /not a directive/],
    ['', /no directive/],
  ])('refuses %j at start-up', (policy, message) => {
    expect(() => cacheControl(policy as never)).toThrow(message);
  });
});

describe('HTTP dates (RFC 9110 §5.6.7)', () => {
  it('formats Date once per second', () => {
    expect(currentDate(1_000_500)).toBe('Thu, 01 Jan 1970 00:16:40 GMT');
    expect(currentDate(1_000_999)).toBe(currentDate(1_000_000));
  });
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', 784111777000],
    ['Sunday, 06-Nov-94 08:49:37 GMT', 784111777000],
    ['Sun Nov  6 08:49:37 1994', 784111777000],
    ['yesterday', undefined],
    ['', undefined],
    ['1994-11-06', undefined],
  ])('parses %j', (text, ms) => {
    expect(parseHttpDate(text)).toBe(ms);
  });
});

describe('entity tags (RFC 9110 §8.8.3)', () => {
  it.each([
    ['*', '*'],
    [
      '"a", W/"b"',
      [
        { weak: false, opaque: 'a' },
        { weak: true, opaque: 'b' },
      ],
    ],
    [
      ' "a" ,, "b" ',
      [
        { weak: false, opaque: 'a' },
        { weak: false, opaque: 'b' },
      ],
    ],
    ['a', undefined],
    ['"a" b', undefined],
  ])('parses %j', (value, tags) => {
    expect(parseTags(value)).toEqual(tags);
  });
});

describe('evaluatePreconditions (RFC 9110 §13.2.2)', () => {
  const current = {
    exists: true,
    lastModified: Date.parse('Sun, 06 Nov 1994 08:49:37 GMT'),
    matches: (t: { opaque: string; weak: boolean }, strong: boolean) =>
      t.opaque === 'v1' && !(strong && t.weak),
  };
  const ev = (method: string, headers: Record<string, string>, c = current) =>
    evaluatePreconditions(method, new Headers(headers), c);
  it.each([
    ['GET', { 'if-none-match': '"v1"' }, 'notModified'],
    ['GET', { 'if-none-match': 'W/"v1"' }, 'notModified'],
    ['GET', { 'if-none-match': '"x", "v1"' }, 'notModified'],
    ['GET', { 'if-none-match': '*' }, 'notModified'],
    ['GET', { 'if-none-match': '"x"' }, 'proceed'],
    ['GET', { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' }, 'notModified'],
    ['GET', { 'if-modified-since': 'Sat, 05 Nov 1994 08:49:37 GMT' }, 'proceed'],
    // If-Modified-Since only counts without If-None-Match (§13.1.3).
    [
      'GET',
      { 'if-none-match': '"x"', 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' },
      'proceed',
    ],
    ['PUT', { 'if-match': '"v1"' }, 'proceed'],
    ['PUT', { 'if-match': 'W/"v1"' }, 'failed'],
    ['PUT', { 'if-match': '"v0"' }, 'failed'],
    ['PUT', { 'if-match': '*' }, 'proceed'],
    ['PUT', { 'if-unmodified-since': 'Sat, 05 Nov 1994 08:49:37 GMT' }, 'failed'],
    ['PUT', { 'if-unmodified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' }, 'proceed'],
    ['PUT', { 'if-none-match': '*' }, 'exists'],
    ['DELETE', { 'if-match': 'garbage' }, 'failed'],
  ])('%s with %j is %s', (method, headers, verdict) => {
    expect(ev(method, headers)).toBe(verdict);
  });

  it('passes If-None-Match: * and fails If-Match: * when nothing exists', () => {
    const none = { ...current, exists: false };
    expect(ev('PUT', { 'if-none-match': '*' }, none)).toBe('proceed');
    expect(ev('PUT', { 'if-match': '*' }, none)).toBe('failed');
  });
});

describe('caching() through the pipeline', () => {
  let revision = 1;
  const modified = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
  let handlerRuns = 0;
  const version = () => ({ version: String(revision), lastModified: modified });
  const make = (options: CachingOptions = {}) =>
    conventions({
      lint: 'off',
      routes: {
        '/v1/books': { GET: () => ({ books: [{ id: 'a' }], hasNext: false }) },
        '/v1/books/:id': {
          GET: {
            handler: (ctx: RequestContext) => {
              handlerRuns++;
              return { id: ctx.param('id'), revision };
            },
            config: { resourceVersion: version, formats: ['json', 'xml'] },
          },
          PUT: () => {
            revision++;
            return { revision };
          },
          DELETE: () => noContent(),
        },
        '/v1/static': {
          GET: {
            handler: () => ({ a: 1 }),
            config: { cacheControl: { public: true, maxAge: 60 } },
          },
        },
      },
      plugins: [negotiation(), caching(options)],
    });
  const send = async (
    api: ReturnType<typeof make>,
    method: string,
    url: string,
    headers: Record<string, string> = {},
  ) => {
    const r = await api.handle({ method, url, headers: new Headers(headers) });
    return { ...r, text: r.body === null ? '' : String(r.body) };
  };

  it('puts a strong ETag over the bytes, Date and no-cache on a GET', async () => {
    const api = make();
    const r = await send(api, 'GET', '/v1/books');
    expect(r.headers.etag).toMatch(/^"[\w-]+\.json"$/);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers.date).toMatch(/GMT$/);
    const again = await send(api, 'GET', '/v1/books', { 'if-none-match': `W/${r.headers.etag}` });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.etag).toBe(r.headers.etag);
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('tags the bytes sent, whatever was sent before on the route (RFC 9110 §8.8.3)', async () => {
    // The route remembers its last body and tag: same bytes, same tag; other bytes of the same
    // length, or the first bytes again after others, each get the tag of what is sent.
    let title = 'aaaa';
    const api = conventions({
      routes: { '/v1/page': { GET: () => ({ title }) } },
      plugins: [caching()],
    });
    const tagOf = async () => (await send(api as never, 'GET', '/v1/page')).headers.etag;
    const first = await tagOf();
    expect(await tagOf()).toBe(first);
    title = 'aaab';
    const second = await tagOf();
    expect(second).not.toBe(first);
    title = 'aaaa';
    expect(await tagOf()).toBe(first);
    const fresh = conventions({
      routes: { '/v1/page': { GET: () => ({ title: 'aaab' }) } },
      plugins: [caching()],
    });
    expect((await send(fresh as never, 'GET', '/v1/page')).headers.etag).toBe(second);
  });

  it('uses weak tags when asked', async () => {
    const r = await send(make({ etag: 'weak' }), 'GET', '/v1/books');
    expect(r.headers.etag).toMatch(/^W\/"/);
  });

  it('answers 304 from the version without running the handler', async () => {
    const api = make();
    const first = await send(api, 'GET', '/v1/books/a');
    expect(first.headers.etag).toBe(`"${revision}.json"`);
    expect(first.headers['last-modified']).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    const runs = handlerRuns;
    const r = await send(api, 'GET', '/v1/books/a', {
      'if-none-match': first.headers.etag as string,
    });
    expect(r.status).toBe(304);
    expect(handlerRuns).toBe(runs);
    expect(r.headers.vary).toBe('Accept');
    const ims = await send(api, 'GET', '/v1/books/a', {
      'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT',
    });
    expect(ims.status).toBe(304);
  });

  it('gives the XML of a resource another tag than its JSON', async () => {
    const api = make();
    const json = await send(api, 'GET', '/v1/books/a');
    const xml = await send(api, 'GET', '/v1/books/a', { accept: 'application/xml' });
    expect(xml.headers.etag).not.toBe(json.headers.etag);
    const cross = await send(api, 'GET', '/v1/books/a', {
      accept: 'application/xml',
      'if-none-match': json.headers.etag as string,
    });
    expect(cross.status).toBe(200);
  });

  it('answers 412 to a stale If-Match before the handler changes anything', async () => {
    const api = make();
    const before = revision;
    const r = await send(api, 'PUT', '/v1/books/a', {
      'if-match': '"0.json"',
      'content-type': 'application/json',
    });
    expect(r.status).toBe(412);
    expect(revision).toBe(before);
    expect(r.headers['cache-control']).toBe('no-store');
    const fresh = await send(api, 'PUT', '/v1/books/a', { 'if-match': `"${revision}.xml"` });
    expect(fresh.status).toBe(200);
    expect(revision).toBe(before + 1);
    expect(fresh.headers.etag).toBe(`"${revision}.json"`);
  });

  it('answers 412 to If-None-Match: * on PUT when the resource exists', async () => {
    const r = await send(make(), 'PUT', '/v1/books/a', { 'if-none-match': '*' });
    expect(r.status).toBe(412);
    expect(JSON.parse(r.text).errors[0].code).toBe(41201);
  });

  it('answers 428 to an unconditional write when If-Match is required', async () => {
    const r = await send(make({ requireIfMatch: true }), 'DELETE', '/v1/books/a');
    expect(r.status).toBe(428);
    expect(JSON.parse(r.text).errors[0].code).toBe(42800);
  });

  it('keeps a route policy and sends no-store on errors', async () => {
    const api = make();
    expect((await send(api, 'GET', '/v1/static')).headers['cache-control']).toBe(
      'public, max-age=60',
    );
    const missing = await send(api, 'GET', '/v1/nothing');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.date).toBeDefined();
  });

  it('gives each query its own version tag, and If-Match accepts any of them (RFC 9110 §8.8.3)', async () => {
    const api = make();
    const plain = await send(api, 'GET', '/v1/books/a');
    const some = await send(api, 'GET', '/v1/books/a?fields=id');
    expect(some.headers.etag).not.toBe(plain.headers.etag);
    const cross = await send(api, 'GET', '/v1/books/a?fields=id', {
      'if-none-match': plain.headers.etag as string,
    });
    expect(cross.status).toBe(200);
    const write = await send(api, 'PUT', '/v1/books/a', {
      'if-match': some.headers.etag as string,
    });
    expect(write.status).toBe(200);
  });

  it('sends private, no-cache and Vary: Authorization on a GET with an identity (spec 4.7)', async () => {
    const api = conventions({
      lint: 'off',
      routes: { '/v1/me': { GET: () => ({ name: 'alice' }) } },
      plugins: [
        {
          name: 'who',
          preParsing(ctx) {
            if (ctx.headers.get('authorization') !== null) {
              ctx.identity = { subject: 'alice', scopes: new Set(), via: 'bearer' };
            }
          },
        },
        negotiation(),
        caching(),
      ],
    });
    const r = await send(api, 'GET', '/v1/me', { authorization: 'Bearer x' });
    expect(r.headers['cache-control']).toBe('private, no-cache');
    expect(r.headers.vary).toBe('Accept, Authorization');
    expect(r.headers.etag).toBeDefined();
    const anonymous = await send(api, 'GET', '/v1/me');
    expect(anonymous.headers['cache-control']).toBe('no-cache');
  });

  it('sends Expires when the route knows when the resource changes next (spec 4.7)', async () => {
    const api = conventions({
      lint: 'off',
      routes: {
        '/v1/rates': {
          GET: {
            handler: () => ({ rate: 1 }),
            config: { resourceVersion: () => ({ version: 'r1', expires: Date.UTC(2030, 0, 1) }) },
          },
        },
      },
      plugins: [caching()],
    });
    const r = await send(api, 'GET', '/v1/rates');
    expect(r.headers.expires).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
    expect(r.headers.etag).toBe('"r1.json"');
  });

  it('refuses a contradictory route policy at start-up', () => {
    expect(() =>
      conventions({
        lint: 'off',
        routes: {
          '/v1/a': { GET: { handler: () => ({}), config: { cacheControl: 'public, private' } } },
        },
        plugins: [caching()],
      }),
    ).toThrow(/Route "GET \/v1\/a" cacheControl: public and private contradict/);
  });
});
