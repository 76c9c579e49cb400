/** A resource's shape declared once: its fields, response groups (views) and links (spec 2.10, 2.12). */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { BoundedCache } from '../internal/bounded-cache.ts';
import { assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { compileLinks, type LinkRule, type ResourceLink } from './resource-links.ts';
import {
  compileSelection,
  type FieldTree,
  parseFields,
  type SelectedField,
  selectionTree,
  wholeTree,
} from './select-fields.ts';

/**
 * The declaration of a resource's shape, for {@link defineResource}.
 *
 * @category Payloads
 */
// biome-ignore lint/suspicious/noExplicitAny: an undeclared item type is left open
export interface ResourceOptions<T = any> {
  /**
   * The fields a client may select with `fields`; the response holds only these (spec 2.10).
   * With the item type given (`defineResource<Book>`), a field `Book` lacks is a type error.
   */
  fields: FieldTreeOf<T>;
  /**
   * Named response groups (spec 2.10), each a selection in the `fields` syntax; `*` is every
   * field and the links. @example { small: 'id,title', medium: 'id,title,year,links', large: '*' }
   * @default {} (no `view` parameter)
   */
  views?: Readonly<Record<string, string>>;
  /** The view of a request that names none. @default every field and the links */
  defaultView?: string;
  /** The operations, by relation name, each with its condition; shown as `links` (spec 2.12). @default {} */
  links?: Readonly<Record<string, LinkRule<T>>>;
  /**
   * What the `when` rules read of the request, as a string: callers with the same key see the
   * same links on the same item. The caching plugin mixes it into the strong ETag of a route
   * with `resourceVersion`, which answers 304 before any link is built (RFC 9110 §8.8.3).
   * Narrow it to what the rules decide on (`hasScopes(ctx.identity, 'books:write') ? 'w' : ''`)
   * so that callers who see the same links share tags; widen it when a rule reads more than the
   * identity (a header, the time). @default the identity: subject, client, scopes and claims
   */
  linkKey?: (ctx: RequestContext) => string;
}

/**
 * The selectable fields of `T`: each of its keys, `true` or (for an object, or a list of them)
 * the tree of its own fields; any {@link FieldTree} when `T` is not given.
 *
 * @category Payloads
 */
export type FieldTreeOf<T> = unknown extends T
  ? FieldTree
  : { readonly [K in Extract<keyof T, string>]?: true | FieldSubTree<NonNullable<T[K]>> };

/**
 * The tree a field of type `V` may have in {@link FieldTreeOf}: its own fields for an object or
 * a list of objects, nothing for a `Date` or a plain value.
 *
 * @category Payloads
 */
export type FieldSubTree<V> = V extends readonly (infer E)[]
  ? FieldSubTree<NonNullable<E>>
  : V extends Date
    ? never
    : V extends object
      ? FieldTreeOf<V>
      : never;

/**
 * A resource's shape compiled once by {@link defineResource}: put it on routes as
 * `config.resource` (with the {@link payloads} plugin) so responses are shaped by declaration.
 *
 * @category Payloads
 */
export interface Resource {
  /** The selectable fields. */
  readonly fields: FieldTree;
  /** The view names, for messages and docs. */
  readonly views: readonly string[];
  /**
   * The selection of one request (`fields`, `view`), parsed once per distinct value and kept in
   * a small bounded cache. A wrong value is a 400 naming each problem.
   */
  select(fields: string | null, view: string | null): Selection;
  /** The `links` of one item for this caller. */
  linksOf(ctx: RequestContext, item: unknown): ResourceLink[];
  /** Whether any link depends on the caller. */
  readonly hasLinks: boolean;
  /**
   * What decides the caller's links, as a string (the `linkKey` option); `undefined` when no link
   * has a `when` rule, so every caller sees the same links.
   */
  readonly linkKey?: ((ctx: RequestContext) => string) | undefined;
}

/**
 * What one request keeps of each item.
 *
 * @category Payloads
 */
export interface Selection {
  /** The fields kept, in the declaration's order. */
  readonly fields: readonly SelectedField[];
  /** Whether `links` is kept. */
  readonly links: boolean;
}

// The compiled `fields` selections each resource remembers (client-chosen keys, so bounded).
const cacheSize = 256;
const viewName = /^[a-z][a-z0-9_-]*$/;

function checkTree(where: string, tree: unknown, depth = 0): void {
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree) || depth > 8) {
    throw new TypeError(`${where}: \`fields\` must map field names to true or to a nested map.`);
  }
  for (const [key, rule] of Object.entries(tree)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || key === 'links') {
      throw new TypeError(
        `${where}: "${key}" cannot be a field name (letters, digits, _; "links" is reserved).`,
      );
    }
    if (rule !== true) checkTree(`${where}: ${key}`, rule, depth + 1);
  }
}

/**
 * Declares a resource's shape once, at start-up: the fields a client may select, response
 * groups and links with their conditions. A mistake is a `TypeError`.
 *
 * @example
 * ```ts
 * import { defineResource, hasScopes } from 'api-conventions';
 *
 * interface Book {
 *   id: string;
 *   title: string;
 *   year: number;
 *   author: { id: string; name: string };
 * }
 * const book = defineResource<Book>({
 *   fields: { id: true, title: true, year: true, author: { id: true, name: true } },
 *   views: { small: 'id,title', large: '*' },
 *   links: {
 *     self: { method: 'GET', href: (b) => `/v1/books/${b.id}` },
 *     delete: {
 *       method: 'DELETE',
 *       href: (b) => `/v1/books/${b.id}`,
 *       when: (ctx) => hasScopes(ctx.identity, 'books:write'),
 *     },
 *   },
 * });
 * ```
 *
 * @category Payloads
 */
// biome-ignore lint/suspicious/noExplicitAny: an undeclared item type is left open
export function defineResource<T = any>(options: ResourceOptions<T>): Resource {
  const where = 'defineResource()';
  assertKnownKeys(where, options, ['fields', 'views', 'defaultView', 'links', 'linkKey']);
  checkTree(where, options.fields as FieldTree);
  const tree = options.fields as FieldTree;
  const { hasLinks, linkKey, linksOf } = compileLinks(where, options.links, options.linkKey);
  const all: Selection = Object.freeze({ fields: wholeTree(tree), links: hasLinks });
  const withLinks: FieldTree = hasLinks ? { ...tree, links: true } : tree;

  const compile = (text: string, within: FieldTree, what: string): Selection => {
    const problems: FieldProblem[] = [];
    const fields = compileSelection(parseFields(text), within, problems, what);
    if (problems.length > 0) throw invalidRequest(problems);
    const links = fields.some((f) => f.key === 'links');
    return { fields: fields.filter((f) => f.key !== 'links'), links };
  };

  const views = new Map<string, Selection>();
  for (const [name, text] of Object.entries(options.views ?? {})) {
    if (!viewName.test(name) || typeof text !== 'string') {
      throw new TypeError(
        `${where}: view "${name}" must be a lower-case name with a selection such as 'id,title'.`,
      );
    }
    try {
      views.set(name, text === '*' ? all : compile(text, withLinks, 'the resource'));
    } catch (error) {
      const detail = (error as { errors?: { message: string }[] }).errors
        ?.map((e) => e.message)
        .join(' ');
      throw new TypeError(`${where}: view "${name}": ${detail ?? String(error)}`);
    }
  }
  const defaultView = options.defaultView === undefined ? all : views.get(options.defaultView);
  if (defaultView === undefined) {
    throw new TypeError(`${where}: defaultView "${options.defaultView}" is not one of the views.`);
  }
  const viewTrees = new Map(
    [...views].map(([name, s]) => [
      name,
      s.links ? { ...selectionTree(s.fields), links: true as const } : selectionTree(s.fields),
    ]),
  );

  const cache = new BoundedCache<string, Selection>(cacheSize);
  const select = (fields: string | null, view: string | null): Selection => {
    if (view !== null && !views.has(view)) {
      throw invalidRequest([
        {
          message:
            views.size === 0
              ? 'The query parameter "view" is not read here: this resource has no views.'
              : `The view "${view.slice(0, 64)}" is not one of ${[...views.keys()].join(', ')}.`,
          code: ErrorCode.UnknownView,
        },
      ]);
    }
    if (fields === null) return view === null ? defaultView : views.get(view)!;
    const key = view === null ? fields : `${view}\u0000${fields}`;
    let selection = cache.get(key);
    if (selection === undefined) {
      // `fields` selects within the view when one is named, else among all the fields.
      selection =
        view === null
          ? compile(fields, withLinks, 'the resource')
          : compile(fields, viewTrees.get(view)!, `the view "${view}"`);
      cache.set(key, selection);
    }
    return selection;
  };

  return Object.freeze({
    fields: tree,
    views: [...views.keys()],
    select,
    linksOf,
    hasLinks,
    linkKey,
  });
}
