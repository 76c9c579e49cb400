/** A list route's query declared once: paging styles and sizes, filters, search, sort. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { CursorSeal, lazyRandomSecret } from './cursor.ts';
import { readSort, type SortField } from './sort-order.ts';
import {
  checkPolicy,
  compileRules,
  type ParameterRules,
  type UnknownParameterPolicy,
} from './unknown-parameters.ts';

/**
 * A paging style (spec 4.4): `page` + `per_page`, `limit` + `offset`, or `after` / `before`
 * (a last-seen identifier or an opaque cursor).
 *
 * @category Payloads
 */
export type PagingStyle = 'page' | 'offset' | 'cursor';

/**
 * The type of an exact-match filter's value, as its query parameter is read.
 *
 * @category Payloads
 */
export type FilterType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time';

/**
 * The field names of `T` a list may filter, search or sort by: its string keys, or any string
 * when `T` is not given.
 *
 * @category Payloads
 */
export type ItemField<T> = unknown extends T ? string : Extract<keyof T, string>;

/**
 * What a list route's query may hold, declared on the route as `config.list` (with the
 * {@link payloads} plugin). Give the item type (`ListOptions<Book>`) and a misspelt filter,
 * search or sort field is a type error.
 *
 * @category Payloads
 */
// biome-ignore lint/suspicious/noExplicitAny: an undeclared item type is left open
export interface ListOptions<T = any> {
  /** The plural name the envelope holds the items under: `{ books: [...], hasNext }` (spec 2.7). */
  name: string;
  /** The paging styles the route accepts; the first is used when a request names none. @default ['page', 'offset', 'cursor'] */
  styles?: readonly PagingStyle[];
  /** Items per page when the request gives no size. @default 20, or `maxPerPage` when smaller */
  defaultPerPage?: number;
  /** The largest page size accepted. @default 100 */
  maxPerPage?: number;
  /**
   * Whether the envelope carries `total` (spec 2.8): never, always, or when the request asks
   * with `total=true`. @default false
   */
  total?: boolean | 'on-request';
  /** Exact-match filters: the field name is the query parameter, its type how the value is read (spec 4.4). @default {} */
  filters?: Readonly<Partial<Record<ItemField<T>, FilterType>>>;
  /** The fields `q` searches, case-insensitively, for a partial match (spec 4.4). @default [] (no `q`) */
  search?: readonly ItemField<T>[];
  /** The fields `sort` may name (`sort=-year,title`). The key is always sortable. @default [] */
  sort?: readonly ItemField<T>[];
  /** The order when the request has no `sort`, in the same syntax. @default the key, ascending */
  defaultSort?: string;
  /** The field that identifies an item; it ends every order, so the order is total. @default 'id' */
  key?: ItemField<T>;
  /** The longest `q` accepted, in characters. @default 200 */
  maxSearchLength?: number;
  /**
   * What happens to a query parameter the route does not declare: see
   * {@link UnknownParameterPolicy}. @default the plugin's setting (`'typos'`)
   */
  unknownParameters?: UnknownParameterPolicy;
  /**
   * Further query parameters the route reads itself, accepted as they are; a name ending in `*`
   * accepts every name it begins (`utm_*`). @default []
   */
  parameters?: readonly string[];
  /**
   * The secret cursors are sealed with. Services with several instances give them all the same
   * one, at least 32 random bytes. @default the plugin's, else 32 random bytes per process
   */
  cursorSecret?: string | Uint8Array;
}

/**
 * {@link ListOptions} checked and compiled into plain data, once per route.
 *
 * @category Payloads
 */
export interface ListSpec {
  /** The plural name of the list: the envelope key and the scope of its cursors. */
  readonly name: string;
  /** The paging styles the route accepts. */
  readonly styles: readonly PagingStyle[];
  /** Items per page when the request names no size. */
  readonly defaultPerPage: number;
  /** The largest page size accepted. */
  readonly maxPerPage: number;
  /** Whether the envelope carries `total`: always, never, or when the request asks. */
  readonly total: boolean | 'on-request';
  /** The exact-match filters, by parameter name, with their types. */
  readonly filters: ReadonlyMap<string, FilterType>;
  /** The fields `q` searches (partial match). */
  readonly search: readonly string[];
  /** The fields `sort` may name. */
  readonly sortable: ReadonlySet<string>;
  /** The order when the request names none, the key last. */
  readonly defaultSort: readonly SortField[];
  /** The unique field that ends every order, so keyset positions are exact. */
  readonly key: string;
  /** The longest `q` accepted. */
  readonly maxSearchLength: number;
  /** @internal What an undeclared query parameter gets, and the names and patterns the route reads. */
  readonly parameterRules: ParameterRules;
  /** Every parameter the route reads by name. */
  readonly known: ReadonlySet<string>;
  /**
   * Seals and opens the route's cursors.
   * @internal
   */
  readonly seal: CursorSeal;
}

const optionKeys = [
  'name',
  'styles',
  'defaultPerPage',
  'maxPerPage',
  'total',
  'filters',
  'search',
  'sort',
  'defaultSort',
  'key',
  'maxSearchLength',
  'unknownParameters',
  'parameters',
  'cursorSecret',
];
const allStyles: readonly PagingStyle[] = ['page', 'offset', 'cursor'];
const filterTypes: readonly FilterType[] = ['string', 'integer', 'number', 'boolean', 'date-time'];
/** The parameters of the paging styles, and those every list reads. */
export const pagingParameters = ['page', 'per_page', 'limit', 'offset', 'after', 'before'];
const fieldName = /^[A-Za-z_][A-Za-z0-9_]*$/;

function names(where: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !fieldName.test(v))) {
    throw new TypeError(`${where} must be a list of field names such as ['title', 'year'].`);
  }
  return value as string[];
}

/** Plugin-wide settings a list falls back to. */
interface ListDefaults {
  unknownParameters?: UnknownParameterPolicy;
  parameters?: readonly string[];
  /** The plugin's secret, or a function that draws it on first use. */
  secret?: Uint8Array | (() => Uint8Array);
  /** Parameters other parts of the route read (`fields`, `view`). */
  also?: readonly string[];
}

const encoder = new TextEncoder();

/** The exact-match filters by name; a filter may not take the name of a parameter the list reads. */
function compileFilters(
  where: string,
  given: ListOptions['filters'],
): ReadonlyMap<string, FilterType> {
  const filters = new Map<string, FilterType>();
  for (const [field, type] of Object.entries(given ?? {}) as [string, FilterType][]) {
    if (!fieldName.test(field) || !filterTypes.includes(type)) {
      throw new TypeError(
        `${where}: filter "${field}" must be a field name with a type from ${filterTypes.join(', ')}.`,
      );
    }
    filters.set(field, type);
  }
  for (const field of filters.keys()) {
    if ([...pagingParameters, 'q', 'sort', 'total', 'fields', 'view'].includes(field)) {
      throw new TypeError(
        `${where}: the filter "${field}" would shadow the parameter of that name.`,
      );
    }
  }
  return filters;
}

/** Every query parameter a list reads by name. */
function knownParameters(
  styles: readonly PagingStyle[],
  filters: ReadonlyMap<string, FilterType>,
  search: readonly string[],
  total: boolean | 'on-request',
  others: readonly string[],
): Set<string> {
  return new Set([
    ...styles.flatMap((s) =>
      s === 'page'
        ? ['page', 'per_page']
        : s === 'offset'
          ? ['limit', 'offset']
          : ['after', 'before', 'limit', 'per_page'],
    ),
    ...filters.keys(),
    ...(search.length > 0 ? ['q'] : []),
    'sort',
    ...(total === 'on-request' ? ['total'] : []),
    ...others,
  ]);
}

/** The bytes of a list's own `cursorSecret`, at least 16; `undefined` when it has none. */
function cursorSecret(where: string, given: ListOptions['cursorSecret']): Uint8Array | undefined {
  if (given === undefined) return undefined;
  const bytes = typeof given === 'string' ? encoder.encode(given) : given;
  if (!(bytes instanceof Uint8Array) || bytes.length < 16) {
    throw new TypeError(
      `${where}: \`cursorSecret\` must be at least 16 bytes (32 random bytes are best).`,
    );
  }
  return bytes;
}

/**
 * Checks a list's options once and compiles them; a mistake is a `TypeError` that says how to
 * fix it. `where` names the route in the message.
 */
export function compileList(
  where: string,
  options: ListOptions,
  defaults: ListDefaults = {},
): ListSpec {
  assertKnownKeys(where, options, optionKeys);
  if (typeof options.name !== 'string' || !fieldName.test(options.name)) {
    throw new TypeError(`${where}: \`name\` must be the plural the envelope uses, e.g. 'books'.`);
  }
  const styles = options.styles ?? allStyles;
  if (!Array.isArray(styles) || styles.length === 0 || styles.some((s) => !allStyles.includes(s))) {
    throw new TypeError(
      `${where}: \`styles\` must list paging styles from ${allStyles.join(', ')}.`,
    );
  }
  const maxPerPage = assertInteger(`${where}: maxPerPage`, options.maxPerPage ?? 100, 1, 10_000);
  const defaultPerPage = assertInteger(
    `${where}: defaultPerPage (at most maxPerPage)`,
    options.defaultPerPage ?? Math.min(20, maxPerPage),
    1,
    maxPerPage,
  );
  const total = options.total ?? false;
  if (total !== true && total !== false && total !== 'on-request') {
    throw new TypeError(`${where}: \`total\` must be true, false or 'on-request'.`);
  }
  const filters = compileFilters(where, options.filters);
  const key = options.key ?? 'id';
  if (typeof key !== 'string' || !fieldName.test(key)) {
    throw new TypeError(`${where}: \`key\` must be the name of the identifying field.`);
  }
  const sortable = new Set([...names(`${where}: sort`, options.sort ?? []), key]);
  const { order: defaultSort, unknown } = readSort(options.defaultSort ?? key, sortable, key);
  if (unknown.length > 0) {
    throw new TypeError(
      `${where}: defaultSort names ${unknown.join(', ')}, which \`sort\` does not list.`,
    );
  }
  const search = names(`${where}: search`, options.search ?? []);
  const unknownParameters = checkPolicy(
    where,
    options.unknownParameters ?? defaults.unknownParameters ?? 'typos',
  );
  const parameters = [...(defaults.parameters ?? []), ...(options.parameters ?? [])];
  if (parameters.some((p) => typeof p !== 'string')) {
    throw new TypeError(`${where}: \`parameters\` must be a list of query parameter names.`);
  }
  const known = knownParameters(styles, filters, search, total, [
    ...parameters,
    ...(defaults.also ?? []),
  ]);
  const rules = compileRules(unknownParameters, known);
  const secret = cursorSecret(where, options.cursorSecret) ?? defaults.secret;
  const seal = new CursorSeal(secret ?? lazyRandomSecret());
  return Object.freeze({
    name: options.name,
    styles,
    defaultPerPage,
    maxPerPage,
    total,
    filters,
    search,
    sortable,
    defaultSort,
    key,
    maxSearchLength: assertInteger(
      `${where}: maxSearchLength`,
      options.maxSearchLength ?? 200,
      1,
      10_000,
    ),
    parameterRules: rules,
    known: rules.known,
    seal,
  });
}
