/** Set-Cookie built safely (RFC 6265bis), and the request's Cookie header read. */

/**
 * Attributes of a cookie for {@link serializeCookie}. The defaults are those of a session cookie
 * the spec asks for (spec 4.8): `Path=/`, `Secure`, `HttpOnly`, and `SameSite=Lax`.
 *
 * @category Security
 */
export interface CookieOptions {
  /** The path the cookie is sent for. @default '/' */
  path?: string;
  /** The domain it is sent to, its subdomains included; absent, only the exact host. @default none */
  domain?: string;
  /** Sent over HTTPS only. @default true */
  secure?: boolean;
  /** Out of reach of scripts. @default true */
  httpOnly?: boolean;
  /** Whether other sites' requests carry it: `Strict`, `Lax` or `None` (needs `secure`). @default 'Lax' */
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Lifetime in seconds; 0 deletes the cookie. Absent, a session cookie. @default none */
  maxAge?: number;
  /** When it expires. Prefer `maxAge`. @default none */
  expires?: Date;
  /** Keyed to the top-level site (CHIPS); needs `secure`. @default false */
  partitioned?: boolean;
}

// RFC 6265 §4.1.1: a cookie name is a token; a value is cookie-octets, maybe in double quotes.
const nameToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const cookieOctets = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
// RFC 6265 §4.1.1: a path-value is any CHAR but CTLs and ";" (here: printable ASCII).
const attributeValue = /^[\x20-\x3A\x3C-\x7E]+$/;
const domainPattern = /^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

function refuse(name: string, why: string): never {
  throw new TypeError(`Cookie "${name}": ${why}`);
}

/**
 * One `Set-Cookie` value. Refuses, at call time, what a browser would reject or what would weaken
 * the cookie: a name that is not a token, a value with control characters, `;`, `,`, spaces,
 * quotes or backslashes (encode it first, e.g. `encodeURIComponent`), `SameSite=None` without
 * `Secure`, a `__Secure-` cookie without `Secure`, a `__Host-` cookie without `Secure`, with a
 * `Domain` or with a `Path` other than `/` (RFC 6265bis §4.1.3), `Partitioned` without `Secure`.
 *
 * @example
 * ```ts
 * import { type RequestContext, serializeCookie } from 'api-conventions';
 *
 * export function startSession(ctx: RequestContext, sessionId: string): void {
 *   ctx.responseHeaders.append('set-cookie', serializeCookie('__Host-session', sessionId));
 *   // __Host-session=…; Path=/; Secure; HttpOnly; SameSite=Lax
 * }
 * ```
 *
 * @category Security
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (typeof name !== 'string' || !nameToken.test(name)) {
    refuse(String(name), "a cookie name is a token: letters, digits and !#$%&'*+.^_`|~- only.");
  }
  if (typeof value !== 'string' || !cookieOctets.test(value)) {
    refuse(
      name,
      'the value holds a control character, a space, or one of " , ; \\; encode it first (encodeURIComponent).',
    );
  }
  const path = options.path ?? '/';
  const secure = options.secure ?? true;
  const httpOnly = options.httpOnly ?? true;
  const sameSite = options.sameSite ?? 'Lax';
  if (!attributeValue.test(path) || !path.startsWith('/')) {
    refuse(name, `the path "${path}" must start with / and hold no ; or control character.`);
  }
  if (!['Strict', 'Lax', 'None'].includes(sameSite)) {
    refuse(name, `sameSite must be 'Strict', 'Lax' or 'None'; got ${String(sameSite)}.`);
  }
  if (sameSite === 'None' && !secure) {
    refuse(name, 'SameSite=None needs Secure; browsers reject it otherwise.');
  }
  if (options.partitioned && !secure) refuse(name, 'Partitioned needs Secure.');
  if (name.startsWith('__Secure-') && !secure) refuse(name, 'a __Secure- cookie needs Secure.');
  if (name.startsWith('__Host-')) {
    if (!secure) refuse(name, 'a __Host- cookie needs Secure.');
    if (options.domain !== undefined) refuse(name, 'a __Host- cookie cannot have a Domain.');
    if (path !== '/') refuse(name, 'a __Host- cookie must have Path=/.');
  }
  let cookie = `${name}=${value}; Path=${path}`;
  if (options.domain !== undefined) {
    if (!domainPattern.test(options.domain)) {
      refuse(name, `"${options.domain}" is not a domain name.`);
    }
    cookie += `; Domain=${options.domain}`;
  }
  if (options.maxAge !== undefined) {
    if (!Number.isInteger(options.maxAge))
      refuse(name, 'maxAge must be a whole number of seconds.');
    cookie += `; Max-Age=${options.maxAge}`;
  }
  if (options.expires !== undefined) {
    if (!(options.expires instanceof Date) || Number.isNaN(options.expires.getTime())) {
      refuse(name, 'expires must be a valid Date.');
    }
    cookie += `; Expires=${options.expires.toUTCString()}`;
  }
  if (secure) cookie += '; Secure';
  if (httpOnly) cookie += '; HttpOnly';
  cookie += `; SameSite=${sameSite}`;
  if (options.partitioned) cookie += '; Partitioned';
  return cookie;
}

/**
 * The value of one cookie in a request's `Cookie` header, or `undefined`. The first of several
 * with the same name wins, as browsers send the most specific first (RFC 6265 §5.4).
 *
 * @example
 * ```ts
 * import { type RequestContext, readCookie, unauthorized } from 'api-conventions';
 *
 * const sessions = new Map([['s-1', { user: 'alice' }]]);
 * const me = (ctx: RequestContext) => {
 *   const id = readCookie(ctx.headers.get('cookie'), '__Host-session');
 *   const session = id === undefined ? undefined : sessions.get(id);
 *   if (session === undefined) throw unauthorized('Sign in first.');
 *   return session;
 * };
 * ```
 *
 * @category Security
 */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  // Cost: linear in the header, no cap (a cookie past a cap would read as absent). The next `=`
  // is searched for again only once passed, so a run of pairs without one is not rescanned.
  let from = 0;
  let eq = -1;
  while (from < header.length) {
    let end = header.indexOf(';', from);
    if (end === -1) end = header.length;
    if (eq < from) {
      eq = header.indexOf('=', from);
      if (eq === -1) break;
    }
    if (eq < end && header.slice(from, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.length > 1 && value.startsWith('"') && value.endsWith('"'))
        value = value.slice(1, -1);
      return value;
    }
    from = end + 1;
  }
  return undefined;
}
