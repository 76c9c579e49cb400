/**
 * The bookshelf's routes as its typed client sees them: the tables its parts declare with
 * `defineRoutes`, whose settings (schemas, field rules, lists, resources) type every call.
 * Types only: importing this file loads nothing of the service.
 */
import type { RoutesOf } from 'api-conventions/client';
import type { authorRoutes } from '../bookshelf/authors.ts';
import type { bookRoutes } from '../bookshelf/books.ts';

/** Every typed route of the bookshelf: books, then authors (v1, deprecated, and v2). */
export type BookshelfRoutes = RoutesOf<ReturnType<typeof bookRoutes>> &
  RoutesOf<ReturnType<typeof authorRoutes>>;
