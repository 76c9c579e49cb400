/**
 * The bookshelf's authors, in two versions (spec 9): `/v1/authors` and `/v1/authors/{id}` are
 * deprecated in favour of `/v2/authors`, whose format changed; `/v1/reviews` is retired (410).
 */
import {
  type DeprecatedCall,
  type Deprecation,
  defineRoutes,
  listOf,
  notFound,
  type Plugin,
  type RequestContext,
  versioning,
} from 'api-conventions';
import { z } from 'zod';

/** An author as the bookshelf stores it. */
interface Author {
  id: string;
  given: string;
  family: string;
  born: number;
  died: number;
}

const people: readonly [id: string, given: string, family: string, born: number, died: number][] = [
  ['jane-austen', 'Jane', 'Austen', 1775, 1817],
  ['charles-dickens', 'Charles', 'Dickens', 1812, 1870],
  ['mary-shelley', 'Mary', 'Shelley', 1797, 1851],
  ['herman-melville', 'Herman', 'Melville', 1819, 1891],
  ['george-eliot', 'George', 'Eliot', 1819, 1880],
  ['leo-tolstoy', 'Leo', 'Tolstoy', 1828, 1910],
  ['fyodor-dostoevsky', 'Fyodor', 'Dostoevsky', 1821, 1881],
  ['mark-twain', 'Mark', 'Twain', 1835, 1910],
  ['thomas-hardy', 'Thomas', 'Hardy', 1840, 1928],
  ['emily-bronte', 'Emily', 'Brontë', 1818, 1848],
  ['jules-verne', 'Jules', 'Verne', 1828, 1905],
  ['virginia-woolf', 'Virginia', 'Woolf', 1882, 1941],
];

/**
 * Where the changes are explained. The sunset is far off on purpose: the reference service keeps
 * serving v1 for years, so its clients (and its tests) never meet a 410 they did not ask for.
 */
const authorsV1Deprecation: Deprecation = {
  announced: '2026-06-01',
  sunset: '2030-06-30',
  successor: '/v2/authors',
  documentation: 'https://bookshelf.example.com/changes#authors-v2',
};

/** Reviews were announced as retired on 15 January 2025 and ended on 31 July 2025. */
const reviewsV1: Deprecation = {
  announced: '2025-01-15',
  sunset: '2025-07-31',
  successor: null,
  documentation: 'https://bookshelf.example.com/changes#reviews-retired',
};

/** Version 1: one `name` string and flat years. */
const v1 = (a: Author) => ({
  id: a.id,
  name: `${a.given} ${a.family}`,
  born: a.born,
  died: a.died,
});

/** Version 2 (a breaking change, hence a new major): the name in parts, the years in `lifespan`. */
const v2 = (a: Author) => ({
  id: a.id,
  name: { given: a.given, family: a.family },
  lifespan: { born: a.born, died: a.died },
});

// What each version sends, for the OpenAPI document (named schemas) and development checks.
const authorV1 = z
  .object({ id: z.string(), name: z.string(), born: z.number().int(), died: z.number().int() })
  .meta({ id: 'AuthorV1', description: 'An author, version 1: one name, flat years.' });
const authorV2 = z
  .object({
    id: z.string(),
    name: z.object({ given: z.string(), family: z.string() }),
    lifespan: z.object({ born: z.number().int(), died: z.number().int() }),
  })
  .meta({ id: 'Author', description: 'An author: the name in parts, the years in lifespan.' });
const authorsV1 = z
  .object({ authors: z.array(authorV1).readonly(), hasNext: z.boolean() })
  .meta({ id: 'AuthorListV1', description: 'Every author, version 1 (spec 2.7).' });
const authorsV2 = z
  .object({ authors: z.array(authorV2).readonly(), hasNext: z.boolean() })
  .meta({ id: 'AuthorList', description: 'Every author (spec 2.7).' });

/** The author routes, both versions, and the retired reviews. */
export function authorRoutes() {
  const authors = new Map<string, Author>(
    people.map(([id, given, family, born, died]) => [id, { id, given, family, born, died }]),
  );
  const find = (ctx: RequestContext): Author => {
    const id = ctx.param('id');
    const author = authors.get(id);
    if (author === undefined) throw notFound(`No author with id "${id}".`);
    return author;
  };
  const all = () => [...authors.values()];

  return defineRoutes({
    '/v1/authors': {
      GET: {
        handler: () => listOf('authors', all().map(v1), { hasNext: false }),
        config: { deprecation: authorsV1Deprecation, response: { 200: authorsV1 } },
      },
    },
    '/v1/authors/:id': {
      GET: {
        handler: (ctx) => v1(find(ctx)),
        config: {
          deprecation: { ...authorsV1Deprecation, successor: '/v2/authors/:id' },
          response: { 200: authorV1 },
        },
      },
    },
    '/v2/authors': {
      GET: {
        handler: () => listOf('authors', all().map(v2), { hasNext: false }),
        config: { response: { 200: authorsV2 } },
      },
    },
    '/v2/authors/:id': {
      GET: { handler: (ctx) => v2(find(ctx)), config: { response: { 200: authorV2 } } },
    },
    // Past its sunset the route answers 410 before the handler runs.
    '/v1/reviews': {
      GET: {
        handler: () => listOf('reviews', [], { hasNext: false }),
        config: { deprecation: reviewsV1 },
      },
    },
  });
}

/** The versioning plugin; `onDeprecatedCall` sees who still calls a deprecated endpoint. */
export function authorPlugins(onDeprecatedCall?: (call: DeprecatedCall) => void): Plugin[] {
  return [versioning(onDeprecatedCall ? { onDeprecatedCall } : {})];
}
