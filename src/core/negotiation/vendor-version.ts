/** Versions in vendor media types (`application/vnd.acme.v2+json`): the one a type names, the ones a route serves. */
import type { Handler, RouteInfo } from '../kernel/route-table.ts';

const vndPrefix = 'application/vnd.';
const versionName = /^v\d+$/;

/**
 * The major version a vendor type names: its `v<N>` segment after the tree
 * (`application/vnd.acme.v2+json` and `application/vnd.acme.book.v2+json` name 2); `undefined`
 * when it names none, NaN (served by no route) when it names two different ones. `tree` is
 * `application/vnd.<vendor>` when the vendor is known, else the first name after `vnd.` is the tree.
 * Negotiation and versioning both read versions through it, so they agree on what a type names.
 */
// Cost: linear in the type, which comes from an Accept value of at most 4,096 characters.
export function vendorVersionOf(type: string, tree: string | undefined): number | undefined {
  const from = tree === undefined ? type.indexOf('.', vndPrefix.length) : tree.length;
  const to = type.lastIndexOf('+');
  if (from < 0 || to < from) return undefined;
  let version: number | undefined;
  for (const name of type.slice(from + 1, to).split('.')) {
    if (!versionName.test(name)) continue;
    const named = Number(name.slice(1));
    if (version !== undefined && version !== named) return Number.NaN;
    version = named;
  }
  return version;
}

/** The major version in a route's path (`/v1/…`, spec 9.1); none for a path without one. */
const pathVersion = /^\/v(\d+)(?:\.\d+)*(?=\/|$)/i;

/** The versions a `versioned()` handler serves, which it carries for negotiation and versioning. */
export interface ServedVersions {
  /** The versions served, in ascending order. */
  readonly versions: readonly number[];
  /** The version of a request that asks for none. */
  readonly fallback: number;
}

// A registered symbol, so that the mark is read alike by every copy of the package loaded (its
// ESM and CommonJS builds side by side).
const servedKey = Symbol.for('api-conventions.versioned');

/** Marks `handler` as serving `served`, for {@link servedVersionsOf}. */
export function markServedVersions(handler: Handler, served: ServedVersions): void {
  Object.defineProperty(handler, servedKey, { value: served });
}

/** The versions a handler marked by {@link markServedVersions} serves; `undefined` for any other. */
export function servedVersionsOf(handler: unknown): ServedVersions | undefined {
  return typeof handler === 'function'
    ? ((handler as unknown as Record<symbol, ServedVersions | undefined>)[servedKey] ?? undefined)
    : undefined;
}

/**
 * The major versions a route serves: its `versioned()` handler's, else its path's (`/v2/…` serves
 * 2), else none.
 */
export function versionsOf(route: RouteInfo, table: ServedVersions | undefined): readonly number[] {
  if (table !== undefined) return table.versions;
  const major = pathVersion.exec(route.pattern)?.[1];
  return major === undefined ? [] : [Number(major)];
}

/**
 * `type` with the version it names replaced by `version`: a `versioned()` route answers in the
 * version versioning chose, and its label says so (`.v2` → `.v1`).
 */
export function relabel(type: string, named: number, version: number): string {
  const mark = `.v${named}`;
  for (let at = type.indexOf(mark); at !== -1; at = type.indexOf(mark, at + 1)) {
    const next = type.charCodeAt(at + mark.length);
    if (next === 46 || next === 43) {
      return `${type.slice(0, at)}.v${version}${type.slice(at + mark.length)}`;
    }
  }
  return type;
}
