/**
 * Resource names (spec 4.1.4 "Resource names are plural nouns"; 1: "the HTTP method states the
 * operation"), beyond the route lint's collections before a parameter: the path's last segment
 * names a resource too, so a singular noun (`/user`, `/rate_limit`) or a verb (`/auth/login`,
 * `/users/invite`, `/utils/cache/clear`) there is reported. Heuristic: a segment after a plural
 * collection may be an identifier (`/gists/public`) and a segment before another one a namespace
 * (`/search/repositories`); both are left alone unless they are verbs.
 */

// Verbs that name an operation, which the method states instead.
const verbs = new Set([
  'login',
  'logout',
  'signin',
  'signout',
  'signup',
  'register',
  'invite',
  'clear',
  'reset',
  'refresh',
  'verify',
  'activate',
  'deactivate',
  'enable',
  'disable',
  'send',
  'resend',
  'create',
  'update',
  'delete',
  'remove',
  'add',
  'get',
  'set',
  'run',
  'execute',
  'start',
  'stop',
  'cancel',
  'approve',
  'reject',
  'publish',
  'unpublish',
  'subscribe',
  'unsubscribe',
  'sync',
  'upload',
  'download',
  'validate',
  'confirm',
  'find',
  'fetch',
  'check',
  'merge',
  'restore',
  'archive',
]);

// Nouns whose plural is themselves, and singletons every API may serve (its own description, the
// caller, its health): no collection to name in the plural.
const singletons = new Set([
  'data',
  'media',
  'news',
  'info',
  'information',
  'metadata',
  'content',
  'feedback',
  'software',
  'staff',
  'health',
  'healthz',
  'me',
  'self',
  'openapi',
  'swagger',
  'graphql',
  'version',
  'ping',
]);

/** The last word of a segment (`rate_limit` → `limit`, `clearCache` → `cache`), lower-case. */
function lastWord(segment: string): string {
  const words = segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return (words.at(-1) ?? '').toLowerCase();
}

/** The first word of a segment (`clear-cache` → `clear`), lower-case. */
function firstWord(segment: string): string {
  return (
    segment.split(/[^\p{L}\p{N}]+|(?<=[a-z0-9])(?=[A-Z])/u).find(Boolean) ?? ''
  ).toLowerCase();
}

const isPlural = (word: string) => word === '' || /s$/.test(word) || singletons.has(word);

/**
 * What is wrong with the last segment of `path` (a template with `{name}` or `:name`
 * parameters, concrete numbers and UUIDs read as identifiers), or undefined.
 */
export function resourceNameProblem(path: string): string | undefined {
  const pathname = path.split('?')[0]!;
  if (/^\/\.well-known\/|\/oauth2?\//.test(pathname)) return undefined;
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((s) =>
      /^\{.*\}$|^:|^\d+$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)
        ? undefined
        : s,
    );
  const last = segments.at(-1);
  if (last === undefined || /\.[a-z0-9]+$/i.test(last)) return undefined;
  if (segments.length === 1 && /^v\d+(?:\.\d+)*$/i.test(last)) return undefined;
  // The first word carries the operation (`clearCache`, `findByStatus`, `login`).
  if (verbs.has(firstWord(last))) {
    return `\`${last}\` is a verb: a path names a resource, and the method states the operation`;
  }
  const before = segments.at(-2);
  // After a plural collection, a literal segment may be an item's identifier (`/gists/public`).
  if (before !== undefined && segments.length >= 2 && isPlural(lastWord(before))) return undefined;
  if (isPlural(lastWord(last))) return undefined;
  return `\`${last}\` names a resource in the singular; resource names are plural nouns`;
}
