import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/host.ts';
import { conventions, HeaderBag, type HeaderInit, ok, type Plugin } from '../../src/index.ts';

/** The record as a plain object, for `toEqual` against literals. */
const plain = (bag: HeaderBag) => ({ ...bag.record });

describe('HeaderBag', () => {
  it.each<[string, (bag: HeaderBag) => unknown, Record<string, string | string[]>]>([
    [
      'set lower-cases the name',
      (b) => b.set('Cache-Control', 'no-store'),
      { 'cache-control': 'no-store' },
    ],
    ['set replaces the value', (b) => b.set('etag', '"a"').set('ETag', '"b"'), { etag: '"b"' }],
    ['set writes a number as text', (b) => b.set('content-length', 42), { 'content-length': '42' }],
    [
      'set keeps several values as a list',
      (b) => b.set('link', ['<a>', '<b>']),
      { link: ['<a>', '<b>'] },
    ],
    ['append starts a header', (b) => b.append('x-a', '1'), { 'x-a': '1' }],
    [
      'append adds to a header',
      (b) => b.append('x-a', '1').append('X-A', '2'),
      { 'x-a': ['1', '2'] },
    ],
    [
      'append adds a list',
      (b) => b.append('x-a', '1').append('x-a', ['2', 3]),
      { 'x-a': ['1', '2', '3'] },
    ],
    ['vary lists names', (b) => b.vary('Origin', 'Accept'), { vary: 'Origin, Accept' }],
    [
      'vary never repeats a name, whatever its case',
      (b) => b.vary('Origin').vary('origin', 'ACCEPT').vary('Accept'),
      { vary: 'Origin, ACCEPT' },
    ],
    [
      'vary reads a comma-separated list',
      (b) => b.vary('Origin, Accept-Encoding').vary('accept-encoding'),
      { vary: 'Origin, Accept-Encoding' },
    ],
    [
      'vary * absorbs the names before it (RFC 9110 §12.5.5)',
      (b) => b.vary('Origin').vary('*'),
      { vary: '*' },
    ],
    ['vary * absorbs the names after it', (b) => b.vary('*').vary('Origin'), { vary: '*' }],
    ['vary with nothing adds nothing', (b) => b.vary(), {}],
    [
      'delete removes a header whatever its case',
      (b) => b.set('x-a', '1').set('x-b', '2').delete('X-A'),
      { 'x-b': '2' },
    ],
  ])('%s', (_, act, expected) => {
    const bag = new HeaderBag();
    act(bag);
    expect(plain(bag)).toEqual(expected);
  });

  it('tells whether delete removed anything', () => {
    const bag = new HeaderBag({ 'x-a': '1' });
    expect(bag.delete('x-a')).toBe(true);
    expect(bag.delete('x-a')).toBe(false);
  });

  it('treats X-Foo and x-foo as one header in get, has, set and delete', () => {
    const bag = new HeaderBag({ 'X-Foo': '1' });
    expect(bag.get('x-foo')).toBe('1');
    expect(bag.has('X-FOO')).toBe(true);
    bag.set('x-foo', '2');
    expect(plain(bag)).toEqual({ 'x-foo': '2' });
    bag.delete('X-Foo');
    expect(bag.has('x-foo')).toBe(false);
    expect(bag.get('x-foo')).toBeUndefined();
  });

  it('keeps several Set-Cookie values as separate values, never joined (RFC 6265 §3)', () => {
    const bag = new HeaderBag()
      .append('Set-Cookie', 'a=1; Path=/; Secure; HttpOnly')
      .append('set-cookie', 'b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT');
    expect(bag.get('set-cookie')).toEqual([
      'a=1; Path=/; Secure; HttpOnly',
      'b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT',
    ]);
  });

  it.each<[string, HeaderInit, HeaderInit, Record<string, string | string[]>]>([
    [
      'another header replaces the value',
      { etag: '"a"', 'x-a': '1' },
      { ETag: '"b"' },
      { etag: '"b"', 'x-a': '1' },
    ],
    ['Vary merges', { vary: 'Origin' }, { Vary: 'Accept, origin' }, { vary: 'Origin, Accept' }],
    [
      'Vary merges a list',
      { vary: 'Origin' },
      { vary: ['Accept', 'Cookie'] },
      { vary: 'Origin, Accept, Cookie' },
    ],
    [
      'Set-Cookie appends',
      { 'set-cookie': 'a=1' },
      { 'Set-Cookie': 'b=2' },
      { 'set-cookie': ['a=1', 'b=2'] },
    ],
    [
      'Link appends',
      { link: '<a>; rel="next"' },
      { link: ['<b>; rel="prev"'] },
      { link: ['<a>; rel="next"', '<b>; rel="prev"'] },
    ],
    ['an undefined value is skipped', { 'x-a': '1' }, { 'x-a': undefined }, { 'x-a': '1' }],
    ['a number becomes text', {}, { 'retry-after': 30 }, { 'retry-after': '30' }],
    [
      'another bag merges by the same rules',
      { vary: 'Origin', 'set-cookie': 'a=1', etag: '"a"' },
      new HeaderBag({ vary: 'Accept', 'set-cookie': 'b=2', etag: '"b"' }),
      { vary: 'Origin, Accept', 'set-cookie': ['a=1', 'b=2'], etag: '"b"' },
    ],
  ])('merge: %s', (_, first, second, expected) => {
    expect(plain(new HeaderBag(first).merge(second))).toEqual(expected);
  });

  // RFC 9110 §12.5.5, written plainly: the names of every call in order, each once whatever
  // its case, `*` absorbing the rest; the bag remembers merges, so it must agree with this on
  // any sequence, repeats included.
  function varyReference(calls: string[][]): string | undefined {
    const tokens: string[] = [];
    for (const call of calls) {
      for (const name of call.flatMap((n) => n.split(',').map((t) => t.trim()))) {
        if (name === '') continue;
        if (tokens.includes('*')) break;
        if (name === '*') tokens.splice(0, tokens.length, '*');
        else if (!tokens.some((t) => t.toLowerCase() === name.toLowerCase())) tokens.push(name);
      }
    }
    return tokens.length === 0 ? undefined : tokens.join(', ');
  }

  it('merges any sequence of Vary names as RFC 9110 §12.5.5 says, remembered merges included', () => {
    const name = fc.constantFrom(
      'Accept',
      'accept',
      'Origin',
      'ORIGIN',
      'Authorization',
      'Accept-Encoding',
      '*',
      '',
    );
    const call = fc.array(
      fc.oneof(
        name,
        fc.array(name, { maxLength: 3 }).map((n) => n.join(', ')),
      ),
      {
        minLength: 1,
        maxLength: 3,
      },
    );
    fc.assert(
      fc.property(fc.array(call, { maxLength: 6 }), (calls) => {
        const bag = new HeaderBag();
        for (const names of calls) bag.vary(...names);
        // Twice, so that the second bag is built from remembered merges.
        const again = new HeaderBag();
        for (const names of calls) again.vary(...names);
        expect(bag.record.vary).toBe(varyReference(calls));
        expect(again.record.vary).toBe(bag.record.vary);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a Vary name that is not a token every time, not only the first', () => {
    for (let i = 0; i < 3; i++) expect(() => new HeaderBag().vary('Bad Name')).toThrow(TypeError);
  });

  it('copies a bag it is built from, so the copy changes alone', () => {
    const original = new HeaderBag({ 'x-a': '1' });
    const copy = new HeaderBag(original);
    copy.set('x-a', '2').set('x-b', '3');
    expect(plain(original)).toEqual({ 'x-a': '1' });
  });

  it('HeaderBag.constant checks once and freezes the record', () => {
    const headers = HeaderBag.constant({ 'X-Frame-Options': 'DENY' });
    expect(headers).toEqual({ 'x-frame-options': 'DENY' });
    expect(Object.isFrozen(headers)).toBe(true);
    expect(() => HeaderBag.constant({ 'x-a': 'a\nb' })).toThrow(TypeError);
  });

  // RFC 9110 §5.5: a field value never holds CR, LF or NUL, which would split the response.
  it.each([
    ['a CR', 'a\rb'],
    ['an LF', 'a\nb'],
    ['a CRLF with a header after it', 'a\r\nSet-Cookie: admin=1'],
    ['a NUL', 'a\0b'],
  ])('refuses a value with %s with a TypeError, whichever way it is set', (_, value) => {
    const ways: ((bag: HeaderBag) => unknown)[] = [
      (b) => b.set('x-a', value),
      (b) => b.set('x-a', ['fine', value]),
      (b) => b.append('x-a', value),
      (b) => b.merge({ 'x-a': value }),
      () => new HeaderBag({ 'x-a': value }),
    ];
    for (const way of ways) {
      const bag = new HeaderBag();
      expect(() => way(bag)).toThrow(TypeError);
      expect(plain(bag)).toEqual({});
    }
  });

  // RFC 9110 §5.1, §5.6.2: a field name is a token.
  it.each(['bad name', 'x:a', '', 'x\r\na', 'é', 'x(a)', 'x"a"'])(
    'refuses the name %j with a TypeError, in set, append, merge and vary',
    (name) => {
      expect(() => new HeaderBag().set(name, '1')).toThrow(TypeError);
      expect(() => new HeaderBag().append(name, '1')).toThrow(TypeError);
      if (name !== '') expect(() => new HeaderBag().merge({ [name]: '1' })).toThrow(TypeError);
      if (!name.includes(',') && name.trim() !== '') {
        expect(() => new HeaderBag().vary(name)).toThrow(TypeError);
      }
    },
  );

  it('refuses a value that is neither a string nor a number with a TypeError', () => {
    expect(() => new HeaderBag().set('x-a', { toString: () => 'x' } as never)).toThrow(TypeError);
    expect(() => new HeaderBag().set('x-a', true as never)).toThrow(TypeError);
  });

  it('knows no header it was not given, whatever its name: constructor, toString, __proto__', () => {
    const bag = new HeaderBag();
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(bag.get(name)).toBeUndefined();
      expect(bag.has(name)).toBe(false);
    }
    bag.set('__proto__', 'a').set('constructor', 'b');
    expect(bag.get('__proto__')).toBe('a');
    expect(bag.get('constructor')).toBe('b');
    expect(Object.keys(bag.record)).toEqual(['__proto__', 'constructor']);
    const names: string[] = [];
    for (const name in new HeaderBag(bag).record) names.push(name);
    expect(names).toEqual(['__proto__', 'constructor']);
  });

  it('accepts every token character in a name (RFC 9110 §5.6.2)', () => {
    const name = "X-!#$%&'*+.^_`|~09az";
    expect(plain(new HeaderBag().set(name, 'v'))).toEqual({ [name.toLowerCase()]: 'v' });
  });
});

describe('HeaderBag through conventions().handle()', () => {
  const quiet = { error() {}, warn() {} };
  const get = (plugins: Plugin[], result: () => unknown) =>
    conventions({ routes: { '/v1/books': { GET: result } }, plugins, logger: quiet }).handle({
      method: 'GET',
      url: '/v1/books',
      headers: new Headers(),
    }) as ApiResponse;

  it('ends Vary: Origin on the context and Vary: Accept on the reply as one Vary: Origin, Accept', () => {
    const cors: Plugin = {
      name: 'cors',
      onRequest(ctx) {
        ctx.responseHeaders.vary('Origin');
      },
    };
    const response = get([cors], () => ok({ books: [] }, { Vary: 'Accept' }));
    expect(response.headers.vary).toBe('Origin, Accept');
  });

  it('sends several Set-Cookie and Link values from the context and the reply, none lost', () => {
    const session: Plugin = {
      name: 'session',
      preParsing(ctx) {
        ctx.responseHeaders.append('Set-Cookie', 'sid=1; Path=/; Secure; HttpOnly');
        ctx.responseHeaders.append('Link', '</v1/books?page=2>; rel="next"');
      },
    };
    const response = get([session], () => {
      const reply = ok({ books: [] });
      reply.headers.append('set-cookie', 'theme=dark; Path=/');
      reply.headers.append('link', '</v1/books>; rel="first"');
      return reply;
    });
    expect(response.headers['set-cookie']).toEqual([
      'sid=1; Path=/; Secure; HttpOnly',
      'theme=dark; Path=/',
    ]);
    expect(response.headers.link).toEqual([
      '</v1/books?page=2>; rel="next"',
      '</v1/books>; rel="first"',
    ]);
  });

  it('answers a reply whose header holds a line break with a 500, never a split response', () => {
    const response = get([], () => ok({}, { 'x-a': 'a\r\nSet-Cookie: admin=1' }));
    expect(response.status).toBe(500);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['x-a']).toBeUndefined();
  });
});
