/**
 * The bookshelf's own typed client: `BASE_URL=http://127.0.0.1:3000 npx tsx
 * examples/bookshelf-client/main.ts` against `npm run example`. Every call is typed from the
 * bookshelf's route table (routes.ts): paths, parameters, query, bodies and responses.
 */
import { createClient, isApiResponseError } from 'api-conventions/client';
import type { BookshelfRoutes } from './routes.ts';

const client = createClient<BookshelfRoutes>({
  baseUrl: process.env.BASE_URL ?? 'http://127.0.0.1:3000',
  oauth: {
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    username: 'alice',
    password: 'wonderland',
  },
  onDeprecation: ({ method, path, sunset, successor }) =>
    console.warn(
      `${method} ${path} is deprecated (sunset ${sunset?.toISOString()}); use ${successor}`,
    ),
});

// Every book of Jane Austen, across pages, with two members each.
for await (const book of client.paginate('/v1/books', {
  query: { authorId: 'jane-austen' },
  fields: ['id', 'year'],
  size: 2,
})) {
  console.log(book.id, book.year);
}

// A whole book: every member typed and present.
const emma = await client.get('/v1/books/:id', { params: { id: 'emma' } });
console.log(`${emma.title} by ${emma.author.name}, ${emma.year}`);

// A change sent with If-Match (the tag of the read above); a 412 means someone changed it first.
try {
  const changed = await client.patch('/v1/books/:id', {
    params: { id: 'emma' },
    body: { pages: 480 },
  });
  console.log('pages now', changed.pages);
} catch (error) {
  if (isApiResponseError(error) && error.changed) console.log('changed meanwhile; read it again');
  else throw error;
}

// A deprecated endpoint: onDeprecation is told once.
const author = await client.get('/v1/authors/:id', { params: { id: 'jane-austen' } });
console.log(author);
