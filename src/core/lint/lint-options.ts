/** Options of the route lint, checked once per call and resolved into plain data. */
import { assertKnownKeys } from '../internal/options.ts';

/**
 * Settings for {@link lintPath} and {@link lintRoutes}.
 *
 * @category Lint
 */
export interface LintOptions {
  /**
   * Patterns exempt from every rule; '*' at the end matches any rest.
   * @default ['/v1/oauth2/*', '/.well-known/*']
   */
  allow?: readonly string[];
  /**
   * Whether a `/v{n}` first segment is required.
   * @default true
   */
  requireVersion?: boolean;
  /**
   * Extra words accepted as plural (or as singleton resources) in addition to the built-in list.
   * @default []
   */
  pluralExceptions?: readonly string[];
}

/**
 * {@link LintOptions} after validation, with every default filled in.
 *
 * @category Lint
 */
export interface ResolvedLintOptions {
  allow: readonly string[];
  requireVersion: boolean;
  pluralExceptions: ReadonlySet<string>;
}

// The spec's own token endpoint (spec 4.9) and its OAuth siblings (revoke, introspect, authorize,
// jwks) are verb-like singletons named by the OAuth RFCs, and RFC 8615 fixes the well-known
// prefix, so none of them can follow the path rules.
const defaultAllow: readonly string[] = ['/v1/oauth2/*', '/.well-known/*'];

const knownKeys = ['allow', 'requireVersion', 'pluralExceptions'] as const;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string '${value}'` : `a ${typeof value}`;
}

function stringList(where: string, key: string, value: unknown, example: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new TypeError(
      `${where}: \`${key}\` must be an array of strings, e.g. ${example}; got ${describe(value)}.`,
    );
  }
  return [...value];
}

/**
 * Validates lint options once and fills in the defaults; misuse throws a `TypeError`.
 *
 * @category Lint
 */
export function resolveLintOptions(where: string, options?: LintOptions): ResolvedLintOptions {
  assertKnownKeys(where, options, knownKeys);
  const given: LintOptions = options ?? {};
  const allow =
    given.allow === undefined
      ? defaultAllow
      : stringList(where, 'allow', given.allow, "['/v1/oauth2/*', '/.well-known/*']");
  for (const entry of allow) {
    if (!entry.startsWith('/')) {
      throw new TypeError(
        `${where}: every \`allow\` entry is a path pattern starting with '/'; got '${entry}'.`,
      );
    }
  }
  if (given.requireVersion !== undefined && typeof given.requireVersion !== 'boolean') {
    throw new TypeError(
      `${where}: \`requireVersion\` must be true or false; got ${describe(given.requireVersion)}.`,
    );
  }
  const exceptions =
    given.pluralExceptions === undefined
      ? []
      : stringList(where, 'pluralExceptions', given.pluralExceptions, "['staff', 'health']");
  return {
    allow,
    requireVersion: given.requireVersion ?? true,
    pluralExceptions: new Set(exceptions.map((word) => word.toLowerCase())),
  };
}

/**
 * Tells whether a pattern is exempt: equal to an `allow` entry, or matching one ending in '*'.
 *
 * @category Lint
 */
export function isAllowed(pattern: string, allow: readonly string[]): boolean {
  return allow.some((entry) =>
    entry.endsWith('*') ? pattern.startsWith(entry.slice(0, -1)) : pattern === entry,
  );
}
