import { describe, expect, it } from 'vitest';
import { projectorOf } from '../../src/core/shaping/project.ts';
import { compileSelection, parseFields } from '../../src/core/shaping/select-fields.ts';
import {
  ApiError,
  defineResource,
  type FieldTree,
  type RequestContext,
  selectFields,
} from '../../src/index.ts';
import { checkPayload } from '../../src/lint.ts';
import { checkProjectors } from './_projector-property.ts';
import { thrown } from './_thrown.ts';
import { expectWithoutCodegen } from './_without-codegen.ts';

const tree: FieldTree = {
  id: true,
  title: true,
  year: true,
  author: { id: true, name: true, born: { year: true, place: true } },
  tags: { name: true },
};
const book = {
  id: 'emma',
  title: 'Emma',
  year: 1815,
  secret: 'never shown',
  author: {
    id: 'jane-austen',
    name: 'Jane Austen',
    born: { year: 1775, place: 'Steventon' },
    email: 'x',
  },
  tags: [
    { name: 'novel', weight: 3 },
    { name: 'comedy', weight: 1 },
  ],
  createdAt: new Date(0),
};

describe('parseFields (spec 2.10)', () => {
  it.each([
    ['id', [{ name: 'id', fields: undefined }]],
    [
      'id,title',
      [
        { name: 'id', fields: undefined },
        { name: 'title', fields: undefined },
      ],
    ],
    ['author(name)', [{ name: 'author', fields: [{ name: 'name', fields: undefined }] }]],
    [
      'a(b(c),d)',
      [
        {
          name: 'a',
          fields: [
            { name: 'b', fields: [{ name: 'c', fields: undefined }] },
            { name: 'd', fields: undefined },
          ],
        },
      ],
    ],
  ])('parses %j', (text, parsed) => {
    expect(parseFields(text)).toEqual(parsed);
  });

  it.each([
    '',
    ',',
    'id,',
    ',id',
    'id,,title',
    'author(',
    'author()',
    'author(name',
    'author)name',
    'id title',
    'id;title',
    '1id',
    'a.b',
    '*',
    '%00',
    'a(b(c(d(e(f(g(h(i(j))))))))',
    'a,'.repeat(1500),
  ])('answers %j with 400 MalformedFields (40017)', (text) => {
    const error = thrown(() => parseFields(text)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.errors[0]!.code).toBe(40017);
  });
});

describe('selectFields', () => {
  it.each([
    ['id,title', { id: 'emma', title: 'Emma' }],
    ['title,id', { id: 'emma', title: 'Emma' }],
    ['id,author(name)', { id: 'emma', author: { name: 'Jane Austen' } }],
    ['author(born(year))', { author: { born: { year: 1775 } } }],
    [
      'author',
      {
        author: {
          id: 'jane-austen',
          name: 'Jane Austen',
          born: { year: 1775, place: 'Steventon' },
        },
      },
    ],
    ['tags(name)', { tags: [{ name: 'novel' }, { name: 'comedy' }] }],
    [
      'id,id,author(id),author(name)',
      { id: 'emma', author: { id: 'jane-austen', name: 'Jane Austen' } },
    ],
    [
      'author(id),author(name),author(born(year)),author(id),author(born(place))',
      {
        author: {
          id: 'jane-austen',
          name: 'Jane Austen',
          born: { year: 1775, place: 'Steventon' },
        },
      },
    ],
    [
      'author(id),author(name),author,author(born(year))',
      {
        author: {
          id: 'jane-austen',
          name: 'Jane Austen',
          born: { year: 1775, place: 'Steventon' },
        },
      },
    ],
    [
      'author(id),author',
      {
        author: {
          id: 'jane-austen',
          name: 'Jane Austen',
          born: { year: 1775, place: 'Steventon' },
        },
      },
    ],
  ])('selects %j, in the declaration order, without undeclared fields', (fields, expected) => {
    expect(selectFields(book, fields, tree)).toEqual(expected);
  });

  it('selects in each item of a list', () => {
    expect(selectFields([book, { id: 'x' }], 'id,year', tree)).toEqual([
      { id: 'emma', year: 1815 },
      { id: 'x' },
    ]);
  });

  it('names every unknown field, nested ones with their path (40012)', () => {
    const error = thrown(() =>
      selectFields(book, 'id,secret,author(email),title(x)', tree),
    ) as ApiError;
    expect(error.status).toBe(400);
    expect(error.errors.map((e) => e.code)).toEqual([40012, 40012, 40012]);
    expect(error.errors.map((e) => e.message.match(/"([^"]+)"/)![1])).toEqual([
      'secret',
      'title',
      'author.email',
    ]);
  });

  it('refuses names of the prototype', () => {
    const error = thrown(() =>
      selectFields(book, 'constructor,__proto__,toString', tree),
    ) as ApiError;
    expect(error.errors).toHaveLength(3);
  });
});

describe('projectorOf: a selection compiled once (spec 2.10)', () => {
  const selection = (fields: string) => compileSelection(parseFields(fields), tree, [], 'the test');
  // JSON.stringify leaves undefined members out, as clients see them.
  const _sent = (value: unknown) => JSON.parse(JSON.stringify(value) ?? 'null');

  it('copies an item whose own keys are the selection, in order, and projects inside it', () => {
    const fields = selection('id,title,year,author(name)');
    const item = { id: 'emma', title: 'Emma', year: 1815, author: book.author };
    const out = projectorOf(fields)(item) as Record<string, unknown>;
    expect(out).toEqual({ id: 'emma', title: 'Emma', year: 1815, author: { name: 'Jane Austen' } });
    expect(out).not.toBe(item);
    expect(item.author).toBe(book.author);
    expect(Object.keys(out)).toEqual(['id', 'title', 'year', 'author']);
  });

  it('leaves out what the selection does not name, whatever the order of the keys', () => {
    const fields = selection('id,title');
    expect(projectorOf(fields)({ title: 'Emma', secret: 1, id: 'emma' })).toEqual({
      id: 'emma',
      title: 'Emma',
    });
    expect(Object.keys(projectorOf(fields)({ title: 'Emma', id: 'emma' }) as object)).toEqual([
      'id',
      'title',
    ]);
  });

  it('is the same projector for the same selection', () => {
    const fields = selection('id');
    expect(projectorOf(fields)).toBe(projectorOf(fields));
  });

  it('sends what project sends, for any value and selection, links last (property)', () => {
    // Node compiles code: each selection's copies are generated object literals.
    checkProjectors();
  });

  it('sends the same where code cannot be compiled, as on Workers (property)', () => {
    expectWithoutCodegen(
      new URL('./_projector-property.ts', import.meta.url),
      'projectors ok (compilesCode: false)',
    );
  });

  it('keeps a field named __proto__ as a member, never as the copy’s prototype', () => {
    const fields = compileSelection(
      parseFields('id,__proto__'),
      { id: true, ['__proto__']: true } as FieldTree,
      [],
      'the test',
    );
    const item = JSON.parse('{"id":"x","__proto__":{"polluted":true}}') as object;
    const out = projectorOf(fields, 'links')(item, []) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"id":"x","__proto__":{"polluted":true},"links":[]}');
  });
});

describe('defineResource: views and links (spec 2.10, 2.12)', () => {
  const identity = (scopes: string[]) =>
    ({ identity: { scopes: new Set(scopes), via: 'test' } }) as unknown as RequestContext;
  const resource = defineResource<typeof book>({
    fields: tree,
    views: { small: 'id,title', medium: 'id,title,author(name),links', large: '*' },
    links: {
      self: { method: 'GET', href: (b) => `/v1/books/${b.id}` },
      delete: {
        method: 'DELETE',
        href: (b) => `/v1/books/${b.id}`,
        when: (ctx) => ctx.identity?.scopes.has('books:write') === true,
      },
    },
  });

  it('selects by view, by fields, and by fields within a view', () => {
    expect(resource.select(null, null)).toMatchObject({ links: true });
    expect(resource.select(null, 'small')).toEqual({
      fields: [
        { key: 'id', sub: undefined },
        { key: 'title', sub: undefined },
      ],
      links: false,
    });
    expect(resource.select('author(name)', 'medium').fields).toEqual([
      { key: 'author', sub: [{ key: 'name', sub: undefined }] },
    ]);
    expect(resource.select('id,links', null)).toMatchObject({ links: true });
  });

  it('lists the links whose rules apply, in the order they are declared (spec 2.12)', () => {
    const may = (scope: string) => (ctx: RequestContext) =>
      ctx.identity?.scopes.has(scope) === true;
    const linked = defineResource<typeof book>({
      fields: tree,
      links: {
        edit: { method: 'PUT', href: (b) => `/v1/books/${b.id}`, when: may('books:write') },
        self: { method: 'GET', href: (b) => `/v1/books/${b.id}` },
        remove: { method: 'DELETE', href: (b) => `/v1/books/${b.id}`, when: may('books:admin') },
        author: { method: 'GET', href: (b) => `/v1/authors/${b.author.id}` },
      },
    });
    const rels = (scopes: string[]) => linked.linksOf(identity(scopes), book).map((l) => l.rel);
    expect(rels([])).toEqual(['self', 'author']);
    expect(rels(['books:admin'])).toEqual(['self', 'remove', 'author']);
    expect(rels(['books:write', 'books:admin'])).toEqual(['edit', 'self', 'remove', 'author']);
    expect(linked.linksOf(identity([]), book)[1]).toEqual({
      rel: 'author',
      method: 'GET',
      href: '/v1/authors/jane-austen',
    });
  });

  it('lists the links of a resource with more rules than an integer has bits', () => {
    const links = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `r${i}`,
        { method: 'GET' as const, href: () => `/v1/x/${i}`, when: () => i % 3 === 0 },
      ]),
    );
    const many = defineResource<typeof book>({ fields: tree, links });
    const rels = many.linksOf(identity([]), book).map((l) => l.rel);
    expect(rels).toEqual(Array.from({ length: 14 }, (_, k) => `r${k * 3}`));
  });

  it('returns the same selection for the same value (parsed once)', () => {
    expect(resource.select('id,title', null)).toBe(resource.select('id,title', null));
  });

  it.each([
    ['year', 'small', 40012, 'the view "small"'],
    ['author(id)', 'medium', 40012, 'author.id'],
    [null, 'huge', 40016, 'small, medium, large'],
    ['id', 'SMALL', 40016, 'small'],
  ])('answers fields=%j&view=%j with 400 (%i)', (fields, view, code, words) => {
    const error = thrown(() => resource.select(fields, view)) as ApiError;
    expect(error.errors[0]!.code).toBe(code);
    expect(error.errors[0]!.message).toContain(words);
  });

  it('shows only the operations the caller may perform', () => {
    expect(resource.linksOf(identity(['books:read']), book).map((l) => l.rel)).toEqual(['self']);
    expect(resource.linksOf(identity(['books:read', 'books:write']), book)).toEqual([
      { rel: 'self', method: 'GET', href: '/v1/books/emma' },
      { rel: 'delete', method: 'DELETE', href: '/v1/books/emma' },
    ]);
  });

  it.each([
    [{ fields: { id: 'yes' } }, '`fields`'],
    [{ fields: { links: true } }, 'reserved'],
    [{ fields: tree, views: { small: 'id,nope' } }, 'view "small"'],
    [{ fields: tree, views: { Small: 'id' } }, 'lower-case'],
    [{ fields: tree, defaultView: 'small' }, 'defaultView'],
    [{ fields: tree, links: { self: { method: 'GO', href: () => '/' } } }, 'link "self"'],
    [{ fields: tree, links: { self: { method: 'GET', href: '/' } } }, 'href function'],
    [{ fields: tree, view: {} }, 'Did you mean `views`'],
  ])('refuses %j at start-up with a TypeError', (options, words) => {
    expect(() => defineResource(options as never)).toThrow(TypeError);
    expect(() => defineResource(options as never)).toThrow(words);
  });
});

describe('checkPayload (spec 2.3, 2.5, 2.6)', () => {
  it('finds nothing in a payload that keeps the rules', () => {
    expect(
      checkPayload({
        books: [{ id: 'a', createdAt: '2026-11-21T10:00:00Z', day: '2026-11-21' }],
        hasNext: true,
      }),
    ).toEqual([]);
  });

  it.each([
    [{ created_at: 1, hasNext: true }, 'more than one style'],
    [{ book: [1, 2] }, 'singular name'],
    [{ items: [{ tag: ['a'] }] }, '"items[].tag"'],
    [{ at: '2026-11-21 10:00:00' }, 'not RFC 3339'],
    [{ at: '11/21/2026' }, 'not RFC 3339'],
    [{ at: 'Sat Nov 21 2026 10:00:00 GMT+0000' }, 'not RFC 3339'],
    [{ at: '2026-11-21T10:00:00' }, 'not RFC 3339'],
  ])('flags %j', (payload, words) => {
    const findings = checkPayload(payload);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(words);
  });

  it('reports a problem repeated in every item once', () => {
    expect(checkPayload({ books: [{ at: '1/2/2026' }, { at: '1/3/2026' }] })).toHaveLength(2);
    expect(checkPayload({ books: [{ tag: [] }, { tag: [] }] })).toHaveLength(1);
  });
});
