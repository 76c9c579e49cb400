/**
 * Words for operations a reader can use: a summary from the method and the resource ("List
 * books", "Read a book"), a tag from the resource, and names for the schemas the library derives
 * (`Book`, `BookList`, `BookInput`).
 */

import type { RouteInfo } from '../kernel/route-table.ts';
import { singularOf } from '../negotiation/xml-names.ts';

/** The resource a pattern names: its last fixed segment, and whether a parameter follows it. */
interface ResourceName {
  /** The segment as written (`books`, `book-imports`, `me`). */
  readonly segment: string;
  /** Whether the pattern ends in a parameter: one item of the collection (`/v1/books/:id`). */
  readonly item: boolean;
  /** Its words, plural as written (`book imports`). */
  readonly plural: string;
  /** One of them (`book import`); `undefined` when the segment is no plural (`me`). */
  readonly singular: string | undefined;
}

const version = /^v\d+$/;
const parameter = /^[:*]|^\{/;

/** The resource of `pattern`, or `undefined` for `/`. */
function resourceOf(pattern: string): ResourceName | undefined {
  const segments = pattern.split('/').filter((s) => s !== '');
  let item = false;
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    if (parameter.test(segment)) {
      item = true;
      continue;
    }
    if (version.test(segment) || segment.startsWith('.')) continue;
    const words = segment.split(/[-_.]+/).filter((w) => w !== '');
    const last = words.at(-1) ?? segment;
    const one = singularOf(last);
    const singular = one === 'item' || one === last ? undefined : [...words.slice(0, -1), one];
    return {
      segment,
      item,
      plural: words.join(' '),
      singular: singular?.join(' '),
    };
  }
  return undefined;
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

/** A summary from the method and the resource: "List books", "Read a book", "Create a book". */
export function summaryOf(route: RouteInfo): string {
  const name = resourceOf(route.pattern);
  if (name === undefined) return `${route.method} ${route.pattern}`;
  const one = name.singular;
  const thing = one === undefined ? name.plural : article(one);
  switch (route.method) {
    case 'GET':
      if (name.item || one === undefined) return `Read ${thing}`;
      return `List ${name.plural}`;
    case 'POST':
      return name.item || one === undefined ? `Act on ${thing}` : `Create ${thing}`;
    case 'PUT':
      return `Create or replace ${thing}`;
    case 'PATCH':
      return `Update ${thing}`;
    case 'DELETE':
      return `Delete ${thing}`;
    default:
      return `${route.method} ${route.pattern}`;
  }
}

/** The tag of a route: its resource as written (`books`, `book-imports`). */
export function tagOf(pattern: string): string | undefined {
  return resourceOf(pattern)?.segment;
}

/** `book import` → `BookImport`. */
function pascal(words: string): string {
  return words
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** The name of one item of a route's resource (`Book`), when its pattern names a plural. */
export function itemNameOf(route: RouteInfo): string | undefined {
  const listName = route.config.list?.name;
  if (listName !== undefined) {
    const one = singularOf(listName);
    return one === 'item' ? undefined : pascal(one);
  }
  const one = resourceOf(route.pattern)?.singular;
  return one === undefined ? undefined : pascal(one);
}
