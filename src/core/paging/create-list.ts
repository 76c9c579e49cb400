/** `createList`: a list's options compiled by hand, for services that read list requests without the plugin. */
import { compileList, type ListOptions, type ListSpec } from './list-options.ts';

/**
 * Checks a list's options once and compiles them; read each request with {@link readList}.
 * Routes served with the {@link payloads} plugin declare `config.list` instead. A bad option is
 * a `TypeError` that says how to fix it.
 *
 * @example
 * ```ts
 * import { createList } from './create-list.ts';
 * import { readList } from './list-query.ts';
 *
 * const books = createList({ name: 'books', sort: ['year'], filters: { year: 'integer' } });
 * const allBooks = [{ id: 'emma', year: 1815 }];
 * // in a handler, with its ctx.query:
 * const page = readList(books, new URLSearchParams('year=1815')).pageArray(allBooks);
 * ```
 *
 * @category Payloads
 */
export function createList(options: ListOptions): ListSpec {
  return compileList('createList()', options);
}
