import { expect, it, vi } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { workOf } from '../_work.ts';
import { describeMatrix } from './_matrix.ts';

await vi.hoisted(() => import('../_work.ts').then((work) => work.startWork()));

// The work of reading Accept, in V8 block executions of its parser (test/_work.ts): at most
// 8 per character, one per offered type compared with a range.
const acceptParser = 'negotiation/accept.ts';

const quiet = { logger: { error() {}, warn() {} } };

/** `Accept` listing `count` vendor types of `vendor`, as the attack sent it. */
const vendorTypes = (vendor: string, count: number) =>
  Array.from({ length: count }, (_, i) => `application/vnd.${vendor}.${i}+json`).join(', ');
// The endpoints anyone may call without a token, which the attack used.
const openEndpoints = [
  '/v1/oauth2/jwks',
  '/.well-known/oauth-authorization-server',
  '/v1/oauth2/authorize',
];

describeMatrix(
  'response format (spec 4.5)',
  () => createBookshelf(quiet),
  (served) => {
    /** A GET of `path` with one `Accept` value. */
    const getWith = (path: string, accept: string) => served.fetch(path, { headers: { accept } });

    it('answers Accept: text/csv with 406 and the error body in JSON naming what is offered (spec 4.5)', async () => {
      const res = await served.fetch('/v1/books', { headers: { accept: 'text/csv' } });
      expect(res.status).toBe(406);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const { errors } = await res.json();
      expect(errors[0].code).toBe(40600);
      expect(errors[0].message).toContain('application/json');
      expect(errors[0].message).toContain('application/xml');
    });

    it('answers format=yaml with 406 (spec 4.5)', async () => {
      const res = await served.fetch('/v1/books/middlemarch?format=yaml');
      expect(res.status).toBe(406);
      expect((await res.json()).errors[0].code).toBe(40601);
    });

    it('answers JSON without Accept and to */* (spec 1: JSON is the default)', async () => {
      for (const accept of [undefined, '*/*']) {
        const res = await served.fetch('/v1/books/middlemarch', {
          headers: accept === undefined ? {} : { accept },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      }
    });

    it('answers XML to Accept: application/xml, with Vary: Accept (RFC 9110 §12.5.5)', async () => {
      const res = await served.fetch('/v1/books/middlemarch', {
        headers: { accept: 'application/xml' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(res.headers.get('vary')).toMatch(/Accept/);
      const text = await res.text();
      expect(text).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?><response><id>middlemarch<\/id>/,
      );
      expect(text).toContain('<authorId>george-eliot</authorId>');
    });

    it('answers XML to format=xml, a list as one element per entry', async () => {
      const res = await served.fetch('/v1/books?format=xml&per_page=2');
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      const text = await res.text();
      expect(text).toMatch(
        /<books><book><id>[^<]+<\/id>.*<\/book><book>.*<\/book><\/books><hasNext>true<\/hasNext>/,
      );
    });

    it('serves the .xml and .json suffixes in their format whatever Accept says (spec 4.5)', async () => {
      const xml = await served.fetch('/v1/books/middlemarch.xml', {
        headers: { accept: 'application/json' },
      });
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(await xml.text()).toContain('<id>middlemarch</id>');
      const list = await served.fetch('/v1/books.json');
      expect(list.status).toBe(200);
      expect((await list.json()).books).toHaveLength(20);
    });

    it('echoes a vendor media type as the Content-Type (spec 4.6)', async () => {
      const res = await served.fetch('/v1/books/middlemarch', {
        headers: { accept: 'application/vnd.bookshelf.book+json' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.bookshelf.book+json');
      expect((await res.json()).id).toBe('middlemarch');
      const xml = await served.fetch('/v1/books/middlemarch', {
        headers: { accept: 'application/vnd.bookshelf.book+xml' },
      });
      expect(xml.headers.get('content-type')).toBe('application/vnd.bookshelf.book+xml');
      expect(await xml.text()).toContain('<id>middlemarch</id>');
    });

    it('sends a 404 in XML when XML was asked for (docs/negotiation.md)', async () => {
      const res = await served.fetch('/v1/books/nothing-here', {
        headers: { accept: 'application/xml' },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(await res.text()).toMatch(
        /<errors><error><message>No book with id &quot;nothing-here&quot;\.<\/message><code>40400<\/code>/,
      );
    });

    it.each([
      ['x', 48_188],
      ['bookshelf', 61_788],
    ])(
      'answers 431 (43101) to 1,700 vendor types of vnd.%s (%i characters) without negotiating them (RFC 6585 §5)',
      async (vendor, length) => {
        const accept = vendorTypes(vendor, 1700);
        expect(accept).toHaveLength(length);
        for (const path of openEndpoints) {
          let res: Response | undefined;
          const work = await workOf(async () => {
            res = await served.fetchAs('anonymous', path, { headers: { accept } });
          }, acceptParser);
          if (res === undefined) throw new Error('no response');
          expect(res.status, path).toBe(431);
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          const { errors } = await res.json();
          expect(errors[0].code).toBe(43101);
          expect(errors[0].message).toContain('4096');
          // Refused on its length alone: the refusal's few blocks, not one media range read.
          expect(work, path).toBeLessThan(10);
        }
      },
    );

    it('answers 431 (43102) to an Accept of more than 64 media ranges, and negotiates 64: none declared here, so 406 (RFC 6585 §5, RFC 9110 §15.5.7)', async () => {
      const many = await served.fetchAs('anonymous', '/v1/oauth2/jwks', {
        headers: { accept: `${vendorTypes('bookshelf', 64)}, */*` },
      });
      expect(many.status).toBe(431);
      expect((await many.json()).errors[0].code).toBe(43102);
      let res: Response | undefined;
      const work = await workOf(async () => {
        res = await served.fetchAs('anonymous', '/v1/oauth2/jwks', {
          headers: { accept: vendorTypes('bookshelf', 64) },
        });
      }, acceptParser);
      if (res === undefined) throw new Error('no response');
      expect(res.status).toBe(406);
      expect((await res.json()).errors[0].code).toBe(40600);
      // 2,165 characters read; none of the 64 declared, so only application/json is compared.
      expect(work).toBeLessThanOrEqual(8 * 2165 + 17 * 64);
    });

    it.each([
      ['/v1/books/emma', 'application/vnd.bookshelf.v9+json', 1],
      ['/v1/books/emma', 'application/vnd.bookshelf.book.v9+xml', 1],
      ['/v1/authors', 'application/vnd.bookshelf.v9+json', 1],
      ['/v1/authors', 'application/vnd.bookshelf.v2+json', 1],
      ['/v2/authors', 'application/vnd.bookshelf.v9+json', 2],
      ['/v2/authors', 'application/vnd.bookshelf.v1+json', 2],
    ])(
      'answers GET %s with Accept: %s, a version the route does not serve, with 406 listing what it serves (RFC 9110 §12.5.1, §15.5.7; regression: echoed over a body of another version)',
      async (path, accept, served) => {
        const res = await getWith(path, accept);
        expect(res.status).toBe(406);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const { errors } = await res.json();
        expect(errors).toHaveLength(1);
        expect(errors[0].code).toBe(40600);
        expect(errors[0].message).toContain(`Accept: "${accept}"`);
        const available = errors[0].message.split('It is available as ')[1];
        expect(available).toMatch(/^application\/json, /);
        expect(available).toContain(`application/vnd.bookshelf.v${served}+json`);
        expect(available).not.toMatch(new RegExp(`\\.v(?!${served}\\+)\\d`));
      },
    );

    it('serves the version its path names, a vendor name without a version, and plain application/json, each labelled as asked (RFC 9110 §12.5.1, RFC 6839)', async () => {
      for (const [accept, type] of [
        ['application/vnd.bookshelf.v1+json', 'application/vnd.bookshelf.v1+json'],
        ['application/vnd.bookshelf.book.v1+json', 'application/vnd.bookshelf.book.v1+json'],
        ['application/vnd.bookshelf.book+json', 'application/vnd.bookshelf.book+json'],
        ['application/json', 'application/json'],
      ]) {
        const res = await getWith('/v1/books/emma', accept!);
        expect(res.status, accept).toBe(200);
        expect(res.headers.get('content-type')?.split(';')[0], accept).toBe(type);
        expect((await res.json()).title, accept).toBe('Emma');
      }
      const xml = await getWith('/v1/books/emma', 'application/vnd.bookshelf.v1+xml');
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toBe('application/vnd.bookshelf.v1+xml');
      expect(await xml.text()).toContain('<title>Emma</title>');
    });

    it('serves /v1/authors as v1 and /v2/authors as v2, each to its own vendor version (spec 9.6, RFC 9110 §12.5.1)', async () => {
      const v1 = await getWith('/v1/authors', 'application/vnd.bookshelf.v1+json');
      expect(v1.status).toBe(200);
      expect(v1.headers.get('content-type')).toBe('application/vnd.bookshelf.v1+json');
      expect((await v1.json()).authors[0]).toEqual({
        id: 'jane-austen',
        name: 'Jane Austen',
        born: 1775,
        died: 1817,
      });
      const v2 = await getWith('/v2/authors', 'application/vnd.bookshelf.v2+json');
      expect(v2.status).toBe(200);
      expect(v2.headers.get('content-type')).toBe('application/vnd.bookshelf.v2+json');
      expect((await v2.json()).authors[0]).toEqual({
        id: 'jane-austen',
        name: { given: 'Jane', family: 'Austen' },
        lifespan: { born: 1775, died: 1817 },
      });
    });

    it.each([
      ['application/vnd.bookshelf.v9+json, */*;q=0.1', 'application/json'],
      ['application/vnd.bookshelf.v9+json, application/*;q=0.2', 'application/json'],
      ['application/vnd.bookshelf.v9+json, application/json;q=0.5', 'application/json'],
      [
        'application/vnd.bookshelf.v9+json, application/vnd.bookshelf.v1+json;q=0.5, application/json;q=0.4',
        'application/vnd.bookshelf.v1+json',
      ],
      ['application/vnd.bookshelf.v1+json;q=0, application/json;q=0.3', 'application/json'],
    ])(
      'negotiates %j past the version nobody serves, to %s (RFC 9110 §12.5.1)',
      async (accept, type) => {
        const res = await getWith('/v1/authors', accept);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')?.split(';')[0]).toBe(type);
        expect((await res.json()).authors[0].name).toBe('Jane Austen');
      },
    );

    it('keeps the cost bound with 64 vendor types naming versions nobody serves (docs/security.md)', async () => {
      const accept = Array.from(
        { length: 64 },
        (_, i) => `application/vnd.bookshelf.v${i + 2}+json`,
      ).join(', ');
      let res: Response | undefined;
      const work = await workOf(async () => {
        res = await getWith('/v1/books/emma', accept);
      }, acceptParser);
      if (res === undefined) throw new Error('no response');
      expect(res.status).toBe(406);
      // The value read once, and none of the 64 offered back: 3 types compared with 64 ranges.
      expect(work).toBeLessThanOrEqual(8 * accept.length + 19 * 64);
    });

    it('answers 406 to XML on a route that offers JSON only', async () => {
      const res = await served.fetch('/v1/book-imports/00000000-0000-0000-0000-000000000000', {
        headers: { accept: 'application/xml' },
      });
      expect(res.status).toBe(406);
    });
  },
);
