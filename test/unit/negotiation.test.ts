import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/core/kernel/context.ts';
import { Offer, singularOf } from '../../src/core/negotiation/index.ts';
import { vendorVersionOf } from '../../src/core/negotiation/vendor-version.ts';
import { createXmlSerializer } from '../../src/core/negotiation/xml.ts';
import {
  conventions,
  type NegotiationOptions,
  negotiation,
  type RouteTable,
  withFormatSuffixes,
} from '../../src/index.ts';

const book = {
  id: 'dune',
  title: 'Dune & <Co>',
  tags: ['sf', 'classic'],
  year: 1965,
  at: new Date(0),
};

function make(options: NegotiationOptions = {}, routes?: RouteTable) {
  return conventions({
    lint: 'off',
    routes:
      routes ??
      withFormatSuffixes({
        '/v1/books/:id': {
          GET: { handler: () => book, config: { formats: ['json', 'xml'], suffixes: true } },
          DELETE: () => undefined,
        },
        '/v1/notes': { GET: () => ({ notes: [] }) },
      }),
    plugins: [negotiation(options)],
  });
}

async function get(api: ReturnType<typeof make>, url: string, accept?: string, method = 'GET') {
  const response = await api.handle({
    method,
    url,
    headers: new Headers(accept === undefined ? {} : { accept }),
  });
  return { ...response, text: response.body === null ? '' : String(response.body) };
}

describe('Offer (RFC 9110 §12.5.1)', () => {
  const offer = new Offer(['json', 'xml'], undefined, 4);
  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['', 'application/json'],
    ['*', 'application/json'],
    ['application/xml', 'application/xml'],
    ['text/xml', 'text/xml'],
    ['application/json;q=0.5, application/xml', 'application/xml'],
    ['application/*', 'application/json'],
  ])('answers Accept %j with %s', (accept, type) => {
    expect(offer.negotiate(accept)?.type).toBe(type);
  });

  it.each([
    'text/csv',
    'application/yaml',
    'application/json;q=0',
    'image/*',
    // No vendor: no vendor type is served.
    'application/vnd.acme.book+xml',
    'application/vnd.acme+json',
  ])('finds nothing acceptable in %j (spec 4.5: 406)', (accept) => {
    expect(offer.negotiate(accept)).toBeNull();
  });

  it('keeps at most cacheSize answers', () => {
    const small = new Offer(['json'], undefined, 3);
    for (let i = 0; i < 10; i++) small.negotiate(`text/x-${i}`);
    expect(small.cached).toBe(3);
    expect(small.negotiate('text/x-9')).toBeNull();
  });

  it("serves the vendor's own type, and a name only where the route declares it", () => {
    const acme = new Offer(['json'], 'acme', 8);
    expect(acme.negotiate('application/vnd.acme+json')?.type).toBe('application/vnd.acme+json');
    expect(acme.negotiate('application/vnd.acme.book+json')).toBeNull();
    expect(acme.negotiate('application/vnd.acme.zzz+json')).toBeNull();
    expect(acme.negotiate('application/vnd.other.book+json')).toBeNull();
    const books = new Offer(['json'], 'acme', 8, [], ['book']);
    expect(books.negotiate('application/vnd.acme.book+json')?.type).toBe(
      'application/vnd.acme.book+json',
    );
    expect(books.negotiate('application/vnd.acme.books+json')).toBeNull();
    expect(books.negotiate('application/vnd.acme.book+xml')).toBeNull();
    expect(books.negotiate('application/vnd.acme.zzz+json, application/json;q=0.1')?.type).toBe(
      'application/json',
    );
    expect(books.mediaTypes).toEqual([
      'application/json',
      'application/vnd.acme+json',
      'application/vnd.acme.book+json',
    ]);
  });
});

describe('vendor types that name a version (RFC 9110 §12.5.1, §15.5.7)', () => {
  it.each([
    ['application/vnd.acme.v2+json', 'application/vnd.acme', 2],
    ['application/vnd.acme.book.v2+xml', 'application/vnd.acme', 2],
    ['application/vnd.acme.v2.book+json', undefined, 2],
    ['application/vnd.acme.book+json', 'application/vnd.acme', undefined],
    ['application/vnd.acme+json', undefined, undefined],
    ['application/vnd.v2+json', undefined, undefined],
    ['application/vnd.acme.0+json', 'application/vnd.acme', undefined],
    ['application/vnd.acme.v1.v2+json', 'application/vnd.acme', Number.NaN],
  ])('reads %s (tree %s) as naming version %s', (type, tree, version) => {
    expect(vendorVersionOf(type, tree)).toBe(version);
  });

  const v1 = new Offer(['json', 'xml'], 'acme', 8, [1], ['book']);
  it.each([
    ['application/vnd.acme.v1+json', 'application/vnd.acme.v1+json'],
    ['application/vnd.acme.book.v1+xml', 'application/vnd.acme.book.v1+xml'],
    ['application/vnd.acme.book+json', 'application/vnd.acme.book+json'],
    ['application/vnd.acme.v9+json, application/json;q=0.1', 'application/json'],
    ['application/vnd.acme.v9+json, */*;q=0.1', 'application/json'],
    [
      'application/vnd.acme.v2+json, application/vnd.acme.v1+json;q=0.2',
      'application/vnd.acme.v1+json',
    ],
  ])('offers a version the route serves: %j is %s', (accept, type) => {
    expect(v1.negotiate(accept)?.type).toBe(type);
  });

  it.each([
    'application/vnd.acme.v9+json',
    'application/vnd.acme.v1.v2+json',
    'application/vnd.acme.v1+json;q=0',
  ])('finds nothing acceptable in %j on a v1 route', (accept) => {
    expect(v1.negotiate(accept)).toBeNull();
  });

  it('offers no version on a route that has none, and lists exactly what it serves', () => {
    const none = new Offer(['json'], 'acme', 8, [], ['book']);
    expect(none.negotiate('application/vnd.acme.v1+json')).toBeNull();
    expect(none.negotiate('application/vnd.acme.book.v1+json')).toBeNull();
    expect(none.negotiate('application/vnd.acme.book+json')?.type).toBe(
      'application/vnd.acme.book+json',
    );
    expect(none.available).toBe(
      'application/json, application/vnd.acme+json, application/vnd.acme.book+json',
    );
    expect(v1.available).toBe(
      'application/json, application/xml, text/xml, application/vnd.acme+json, application/vnd.acme+xml, application/vnd.acme.v1+json, application/vnd.acme.v1+xml, application/vnd.acme.book+json, application/vnd.acme.book+xml, application/vnd.acme.book.v1+json, application/vnd.acme.book.v1+xml',
    );
  });

  it('answers a version the path does not name with 406 listing what it serves', async () => {
    const r = await get(make({ vendor: 'acme' }), '/v1/books/dune', 'application/vnd.acme.v2+json');
    expect(r.status).toBe(406);
    const { errors } = JSON.parse(r.text);
    expect(errors[0].code).toBe(40600);
    expect(errors[0].message).toBe(
      'Nothing this resource offers matches Accept: "application/vnd.acme.v2+json". It is available as application/json, application/xml, text/xml, application/vnd.acme+json, application/vnd.acme+xml, application/vnd.acme.v1+json, application/vnd.acme.v1+xml.',
    );
    const ok = await get(
      make({ vendor: 'acme' }),
      '/v1/books/dune',
      'application/vnd.acme.v1+json',
    );
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/vnd.acme.v1+json');
  });
});

describe('negotiation() (spec 4.5)', () => {
  it('answers XML to Accept: application/xml, with Vary: Accept', async () => {
    const r = await get(make(), '/v1/books/dune', 'application/xml');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/xml');
    expect(r.headers.vary).toBe('Accept');
    expect(r.text).toContain('<title>Dune &amp; &lt;Co&gt;</title>');
    expect(r.text).toContain('<tags><tag>sf</tag><tag>classic</tag></tags>');
  });

  it('answers JSON by default and to */*', async () => {
    for (const accept of [undefined, '*/*']) {
      const r = await get(make(), '/v1/books/dune', accept);
      expect(r.headers['content-type']).toBe('application/json');
      expect(JSON.parse(r.text).id).toBe('dune');
    }
  });

  it('answers 406 with the error body in JSON naming what is offered', async () => {
    const r = await get(make(), '/v1/books/dune', 'text/csv');
    expect(r.status).toBe(406);
    expect(r.headers['content-type']).toBe('application/json');
    const body = JSON.parse(r.text);
    expect(body.errors[0].code).toBe(40600);
    expect(body.errors[0].message).toContain('application/json, application/xml');
  });

  it('answers 406 to format=yaml and to format=xml where XML is not offered', async () => {
    const yaml = await get(make(), '/v1/books/dune?format=yaml');
    expect(yaml.status).toBe(406);
    expect(JSON.parse(yaml.text).errors[0].code).toBe(40601);
    const xml = await get(make(), '/v1/notes?format=xml');
    expect(xml.status).toBe(406);
  });

  it('lets format= win over Accept', async () => {
    const r = await get(make(), '/v1/books/dune?format=xml', 'application/json');
    expect(r.headers['content-type']).toBe('application/xml');
  });

  it('serves a suffix route in its format whatever Accept says', async () => {
    const r = await get(make(), '/v1/books/dune.xml', 'application/json');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/xml');
    const json = await get(make(), '/v1/books/dune.json');
    expect(json.headers['content-type']).toBe('application/json');
  });

  it('echoes a vendor type the route declares as the Content-Type, and lists it for the document', async () => {
    const routes: RouteTable = {
      '/v1/books/:id': { GET: { handler: () => book, config: { vendorTypes: ['book'] } } },
      '/v1/notes': { GET: () => ({ notes: [] }) },
    };
    const api = make({ vendor: 'acme' }, routes);
    const r = await get(api, '/v1/books/dune', 'application/vnd.acme.book+json');
    expect(r.headers['content-type']).toBe('application/vnd.acme.book+json');
    expect(JSON.parse(r.text).id).toBe('dune');
    // Undeclared here: a 406 listing what the route serves (was: echoed on any route).
    const notes = await get(api, '/v1/notes', 'application/vnd.acme.book+json');
    expect(notes.status).toBe(406);
    expect(JSON.parse(notes.text).errors[0].message).toContain(
      'It is available as application/json, application/vnd.acme+json, application/vnd.acme.v1+json.',
    );
    const [books, list] = ['/v1/books/:id', '/v1/notes'].map((p) =>
      api.mediaTypesOf(api.routes.find((x) => x.pattern === p && x.method === 'GET')!),
    );
    expect(books).toEqual([
      'application/json',
      'application/vnd.acme+json',
      'application/vnd.acme.v1+json',
      'application/vnd.acme.book+json',
      'application/vnd.acme.book.v1+json',
    ]);
    expect(list).toEqual([
      'application/json',
      'application/vnd.acme+json',
      'application/vnd.acme.v1+json',
    ]);
  });

  it.each([
    [{}, { vendorTypes: ['book'] }, /vendorTypes needs .*negotiation\(\{ vendor: 'acme' \}\)/],
    [
      { vendor: 'acme' },
      { vendorTypes: ['Book'] },
      /vendorTypes must be a list of lower-case names/,
    ],
    [{ vendor: 'acme' }, { vendorTypes: ['book.v2'] }, /naming no version/],
    [{ vendor: 'acme' }, { vendorTypes: 'book' }, /vendorTypes must be a list/],
  ])('refuses with a TypeError at start-up: %j with %j', (options, config, message) => {
    const routes = { '/v1/books/:id': { GET: { handler: () => book, config } } } as RouteTable;
    expect(() => make(options, routes)).toThrow(message);
  });

  it('sends errors in the negotiated format', async () => {
    const api = make(
      {},
      {
        '/v1/books/:id': {
          GET: {
            handler: (ctx: RequestContext) => {
              throw Object.assign(new Error('x'), {
                status: 404,
                message: `No book ${ctx.param('id')}`,
              });
            },
            config: { formats: ['json', 'xml'] },
          },
        },
      },
    );
    const r = await get(api, '/v1/books/x', 'application/xml');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('application/xml');
    expect(r.text).toMatch(
      /<errors><error><message>.*<\/message><code>40400<\/code><\/error><\/errors>/,
    );
  });

  it('does not negotiate a DELETE', async () => {
    const r = await get(make(), '/v1/books/dune', 'text/csv', 'DELETE');
    expect(r.status).toBe(204);
  });

  it.each([
    [{ formats: ['yaml'] }, /formats/],
    [{ query: 'Format!' }, /query/],
    [{ vendor: 'a b' }, /vendor/],
    [{ cacheSize: 0 }, /cacheSize/],
    [{ fromats: ['json'] }, /Did you mean `formats`/],
  ])('refuses %j at start-up', (options, message) => {
    expect(() => negotiation(options as NegotiationOptions)).toThrow(message);
  });

  it('refuses a route formatSuffix outside its formats', () => {
    expect(() =>
      conventions({
        lint: 'off',
        routes: { '/v1/a.xml': { GET: { handler: () => ({}), config: { formatSuffix: 'xml' } } } },
        plugins: [negotiation()],
      }),
    ).toThrow(/formatSuffix/);
  });
});

describe('withFormatSuffixes (spec 4.5)', () => {
  it('puts the twins of a GET with suffixes: true before their pattern, one per format', () => {
    const handler = () => ({});
    const table = withFormatSuffixes({
      '/v1/a': { GET: handler },
      '/v1/b/:id': {
        GET: { handler, config: { formats: ['json', 'xml'], suffixes: true } },
        DELETE: handler,
      },
    });
    expect(Object.keys(table)).toEqual(['/v1/a', '/v1/b/:id.json', '/v1/b/:id.xml', '/v1/b/:id']);
    expect(table['/v1/b/:id.xml']?.GET).toMatchObject({
      config: { formatSuffix: 'xml', formats: ['json', 'xml'] },
    });
    expect(table['/v1/b/:id.xml']?.DELETE).toBeUndefined();
  });

  it('refuses suffixes on a pattern that ends in a wildcard or a slash', () => {
    const handler = () => ({});
    expect(() =>
      withFormatSuffixes({ '/v1/files/*path': { GET: { handler, config: { suffixes: true } } } }),
    ).toThrow(/suffixes need a pattern/);
  });
});

describe('the XML mapping (docs/negotiation.md)', () => {
  const xml = createXmlSerializer({ declaration: false });
  const ctx = {} as RequestContext;
  it.each([
    [{ a: 1, b: true, c: null }, '<response><a>1</a><b>true</b><c nil="true"></c></response>'],
    [{ books: [] }, '<response><books></books></response>'],
    [
      { entries: [[1, 2]] },
      '<response><entries><entry><item>1</item><item>2</item></entry></entries></response>',
    ],
    [
      { '1st': 'x', 'a b': { c: 2 } },
      '<response><member name="1st">x</member><member name="a b"><c>2</c></member></response>',
    ],
    [{ x: 'a\u0000b' }, '<response><x>a\ufffdb</x></response>'],
    [{ n: Number.NaN, u: undefined }, '<response><n nil="true"></n></response>'],
    [
      { errors: [{ message: 'No <book>', code: 40400 }] },
      '<response><errors><error><message>No &lt;book&gt;</message><code>40400</code></error></errors></response>',
    ],
  ])('maps %j', (value, expected) => {
    expect(xml(value, ctx)).toBe(expected);
  });

  it.each([
    ['books', 'book'],
    ['entries', 'entry'],
    ['boxes', 'box'],
    ['data', 'item'],
    ['ss', 'item'],
  ])('names an entry of %s %s', (list, one) => {
    expect(singularOf(list)).toBe(one);
  });

  it('refuses a root that is no element name', () => {
    expect(() => createXmlSerializer({ root: 'xml-doc' })).toThrow(/root/);
  });
});
