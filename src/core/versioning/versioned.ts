/** One handler per major version of an endpoint, for services that select versions by query or media type. */
import type { RequestState } from '../kernel/context.ts';
import type { Handler } from '../kernel/route-table.ts';
import {
  markServedVersions,
  type ServedVersions,
  servedVersionsOf,
} from '../negotiation/vendor-version.ts';
import type { Deprecation } from './deprecation.ts';

/**
 * One version of a {@link versioned} endpoint with its own deprecation.
 *
 * @category Versioning
 */
export interface VersionedEndpoint {
  /** The handler of this version. */
  handler: Handler;
  /** This version's deprecation, headers and sunset as for a route's `config.deprecation`. */
  deprecation?: Deprecation | undefined;
}

/** What the versioning plugin reads from a {@link versioned} handler: its versions and their deprecations. */
export interface VersionTable extends ServedVersions {
  /** Each version's deprecation, when it has one. */
  readonly deprecations: ReadonlyMap<number, Deprecation>;
}

/**
 * Options of {@link versioned}.
 *
 * @category Versioning
 */
export interface VersionedOptions {
  /** The version of a request that asks for none. @default the lowest version (old clients keep the old format, spec 9.6) */
  default?: number;
}

/**
 * A handler that serves several major versions of one endpoint, chosen per request by the
 * `?version=` query or an `application/vnd.<org>.v<N>+json` media type, as the
 * {@link versioning} plugin's `select` option says. Path versions (`/v1/…`, `/v2/…`) stay the
 * default and need none of this (spec 9.2).
 *
 * @example
 * ```ts
 * import { conventions, defineRoutes, versioned, versioning } from 'api-conventions';
 *
 * const listAuthorsV1 = () => ({ authors: [{ id: '7', name: 'Jane Austen' }], hasNext: false });
 * const listAuthorsV2 = () => ({
 *   authors: [{ id: '7', given: 'Jane', family: 'Austen' }],
 *   hasNext: false,
 * });
 * const routes = defineRoutes({
 *   '/authors': { GET: versioned({ 1: listAuthorsV1, 2: listAuthorsV2 }) },
 * });
 * const api = conventions({
 *   routes,
 *   plugins: [versioning({ select: { query: 'version' } })], // /authors?version=2
 *   lintOptions: { requireVersion: false },
 * });
 * ```
 *
 * @category Versioning
 */
export function versioned(
  versions: Readonly<Record<number, Handler | VersionedEndpoint>>,
  options: VersionedOptions = {},
): Handler {
  if (typeof versions !== 'object' || versions === null || Array.isArray(versions)) {
    throw new TypeError(
      'versioned() takes an object of handlers by major version, e.g. { 1: v1, 2: v2 }.',
    );
  }
  const handlers = new Map<number, Handler>();
  const deprecations = new Map<number, Deprecation>();
  for (const [key, entry] of Object.entries(versions)) {
    if (!/^[1-9]\d{0,5}$/.test(key)) {
      throw new TypeError(
        `versioned(): "${key}" is not a major version; use whole numbers from 1, e.g. { 1: v1, 2: v2 }.`,
      );
    }
    const version = Number(key);
    if (typeof entry === 'function') handlers.set(version, entry);
    else if (typeof entry === 'object' && entry !== null && typeof entry.handler === 'function') {
      handlers.set(version, entry.handler);
      if (entry.deprecation !== undefined) deprecations.set(version, entry.deprecation);
    } else {
      throw new TypeError(
        `versioned(): version ${key} needs a handler, or { handler, deprecation }.`,
      );
    }
  }
  const list = [...handlers.keys()].sort((a, b) => a - b);
  if (list.length === 0) throw new TypeError('versioned() needs at least one version.');
  const fallback = options.default ?? list[0]!;
  if (!handlers.has(fallback)) {
    throw new TypeError(
      `versioned(): the default version ${String(fallback)} is not one of ${list.join(', ')}.`,
    );
  }
  const fallbackHandler = handlers.get(fallback)!;
  const handler: Handler = (ctx) => {
    const chosen = (ctx.state as RequestState).apiVersion;
    return (chosen === undefined ? fallbackHandler : (handlers.get(chosen) ?? fallbackHandler))(
      ctx,
    );
  };
  const table: VersionTable = { versions: list, fallback, deprecations };
  markServedVersions(handler, table);
  return handler;
}

/** The version table of a {@link versioned} handler, or `undefined` for any other handler. */
export function versionTableOf(handler: unknown): VersionTable | undefined {
  // Only versioned() marks a handler, and it marks it with its whole table.
  return servedVersionsOf(handler) as VersionTable | undefined;
}
