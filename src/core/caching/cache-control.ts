/** The Cache-Control builder (spec 4.7, RFC 9111 §5.2.2): the spec's directives only, checked at start-up. */

/**
 * Cache-Control directives of a response, by the spec's list (spec 4.7).
 *
 * @category Caching
 */
export interface CacheDirectives {
  /** Any cache may store the response, even one to an authenticated request. */
  public?: boolean;
  /** Only the client's own cache may store it. */
  private?: boolean;
  /** Stored copies must be revalidated on every use; it does not forbid storing (spec 4.7). */
  noCache?: boolean;
  /** Nothing may store it: confidential data (spec 4.7). */
  noStore?: boolean;
  /** No intermediary may transform the content. */
  noTransform?: boolean;
  /** Once stale, a copy must be revalidated before use. */
  mustRevalidate?: boolean;
  /** Like `mustRevalidate`, for shared caches only. */
  proxyRevalidate?: boolean;
  /** Seconds a copy stays fresh. */
  maxAge?: number;
  /** Seconds a copy stays fresh in shared caches. */
  sMaxage?: number;
}

/**
 * A cache policy as a service writes it: directives, or their header text (`'public, max-age=60'`).
 *
 * @category Caching
 */
export type CachePolicy = CacheDirectives | string;

const names: Record<keyof CacheDirectives, string> = {
  public: 'public',
  private: 'private',
  noCache: 'no-cache',
  noStore: 'no-store',
  noTransform: 'no-transform',
  mustRevalidate: 'must-revalidate',
  proxyRevalidate: 'proxy-revalidate',
  maxAge: 'max-age',
  sMaxage: 's-maxage',
};
const byName = new Map(Object.entries(names).map(([key, name]) => [name, key]));
const order = Object.keys(names) as (keyof CacheDirectives)[];
const seconds = new Set<keyof CacheDirectives>(['maxAge', 'sMaxage']);

function parse(where: string, text: string): CacheDirectives {
  const directives: Record<string, boolean | number> = {};
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const [rawName, value, ...rest] = item.split('=');
    const name = rawName!.trim().toLowerCase();
    const key = byName.get(name) as keyof CacheDirectives | undefined;
    if (key === undefined) {
      throw new TypeError(
        `${where}: "${name}" is not a directive of the spec's list (${Object.values(names).join(', ')}).`,
      );
    }
    if (key in directives) throw new TypeError(`${where}: "${name}" is given twice.`);
    if (seconds.has(key)) {
      if (value === undefined || rest.length > 0 || !/^\d+$/.test(value.trim())) {
        throw new TypeError(`${where}: "${name}" needs a number of seconds, such as ${name}=60.`);
      }
      directives[key] = Number(value.trim());
    } else if (value !== undefined) {
      throw new TypeError(`${where}: "${name}" takes no value.`);
    } else directives[key] = true;
  }
  return directives as CacheDirectives;
}

/** Pairs that cannot hold at once, with the reason (RFC 9111 §5.2.2). */
const contradictions: [keyof CacheDirectives, keyof CacheDirectives, string][] = [
  ['public', 'private', 'a response is either for any cache or for the client alone'],
  ['noStore', 'public', 'no-store forbids storing what public allows'],
  ['noStore', 'private', 'no-store forbids storing what private allows'],
  ['noStore', 'noCache', 'no-cache speaks of a stored copy, which no-store forbids'],
  ['noStore', 'maxAge', 'max-age speaks of a stored copy, which no-store forbids'],
  ['noStore', 'sMaxage', 's-maxage speaks of a stored copy, which no-store forbids'],
  ['noStore', 'mustRevalidate', 'must-revalidate speaks of a stored copy, which no-store forbids'],
  [
    'noStore',
    'proxyRevalidate',
    'proxy-revalidate speaks of a stored copy, which no-store forbids',
  ],
  ['private', 'sMaxage', 's-maxage is for shared caches, which private excludes'],
  ['private', 'proxyRevalidate', 'proxy-revalidate is for shared caches, which private excludes'],
];

/**
 * Builds a `Cache-Control` value from the spec's directives, once, at start-up: an unknown
 * directive, a malformed number of seconds or two directives that contradict each other
 * (`public` with `private`, `no-store` with `max-age` …) is a `TypeError` that says which.
 *
 * @example
 * ```ts
 * import { cacheControl } from 'api-conventions';
 * cacheControl({ public: true, maxAge: 60 }); // 'public, max-age=60'
 * cacheControl('private, no-cache'); // 'private, no-cache'
 * ```
 *
 * @category Caching
 */
export function cacheControl(policy: CachePolicy, where = 'cacheControl()'): string {
  let directives: CacheDirectives;
  if (typeof policy === 'string') directives = parse(where, policy);
  else if (typeof policy === 'object' && policy !== null && !Array.isArray(policy)) {
    directives = policy;
    for (const key of Object.keys(policy)) {
      if (!(key in names)) {
        throw new TypeError(`${where}: "${key}" is not a directive; use ${order.join(', ')}.`);
      }
    }
  } else {
    throw new TypeError(
      `${where} must be directives or their text, such as 'no-cache'; got ${String(policy)}.`,
    );
  }
  const parts: string[] = [];
  for (const key of order) {
    const value = directives[key];
    if (value === undefined || value === false) continue;
    if (seconds.has(key)) {
      if (
        typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 0 ||
        value > 2 ** 31 - 1
      ) {
        throw new TypeError(
          `${where}: ${key} must be a whole number of seconds; got ${String(value)}.`,
        );
      }
      parts.push(`${names[key]}=${value}`);
    } else if (value === true) parts.push(names[key]);
    else throw new TypeError(`${where}: ${key} must be true or false; got ${String(value)}.`);
  }
  for (const [a, b, why] of contradictions) {
    const has = (k: keyof CacheDirectives) =>
      directives[k] !== undefined && directives[k] !== false;
    if (has(a) && has(b)) {
      throw new TypeError(`${where}: ${names[a]} and ${names[b]} contradict each other: ${why}.`);
    }
  }
  if (parts.length === 0) {
    throw new TypeError(`${where} names no directive; say what caches may do, such as 'no-cache'.`);
  }
  return parts.join(', ');
}
