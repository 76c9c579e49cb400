/** The auditor's options, checked once: a wrong one is a TypeError saying how to fix it. */

/**
 * What to audit and how hard to push: see [The conformance auditor](../../docs/audit.md).
 *
 * @category Audit
 */
export interface AuditOptions {
  /** The service's base URL (`https://api.example.com`); paths are resolved under it. */
  baseUrl: string | URL;
  /** Paths to audit (`/v1/books`); the base URL's own path is one when it has one. */
  paths?: readonly string[];
  /** An OpenAPI 3 document in JSON (a file path or an http(s) URL): its paths are audited too. */
  openapi?: string;
  /** Headers sent on every request to the base origin, never to another host (`Authorization`). */
  headers?: Readonly<Record<string, string>>;
  /** An origin to send a CORS preflight from (`https://app.example.com`). */
  origin?: string;
  /** Send probes with bodies (415, 413, POST → 201). @default false */
  allowWrites?: boolean;
  /** Send requests until the rate limit answers 429. @default false */
  allowBurst?: boolean;
  /** Only the rules under these sections (`['4.1', '7']`, `'openapi'` for the contract). @default every rule */
  only?: readonly string[];
  /** Leave out the rules under these sections (`['4.7', 'openapi.schema']`). @default none */
  skip?: readonly string[];
  /**
   * Fail on every violation, the warnings of preferred rules and patterns included (only a
   * required rule fails otherwise). @default false
   */
  strict?: boolean;
  /** The most requests sent in all. @default 500 */
  maxRequests?: number;
  /** Requests in flight at once. @default 4 */
  concurrency?: number;
  /** How long one request may take, in milliseconds. @default 10000 */
  timeoutMs?: number;
  /** OAuth client credentials for the token-endpoint check (spec 4.9). @default none */
  client?: {
    /** The client id. */
    readonly id: string;
    /** The client secret. */
    readonly secret: string;
  };
}

/** {@link AuditOptions} checked, with every default filled in. */
export interface ResolvedAuditOptions {
  base: URL;
  paths: string[];
  openapi: string | undefined;
  headers: [string, string][];
  origin: string | undefined;
  allowWrites: boolean;
  allowBurst: boolean;
  only: string[];
  skip: string[];
  strict: boolean;
  maxRequests: number;
  concurrency: number;
  timeoutMs: number;
  client: { id: string; secret: string } | undefined;
}

const known = new Set([
  'baseUrl',
  'paths',
  'openapi',
  'headers',
  'origin',
  'allowWrites',
  'allowBurst',
  'only',
  'skip',
  'strict',
  'maxRequests',
  'concurrency',
  'timeoutMs',
  'client',
]);

function wholeNumber(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`audit(): ${name} must be a whole number from ${min}; got ${value}.`);
  }
  return value;
}

function httpUrl(name: string, value: unknown): URL {
  let url: URL | undefined;
  try {
    url = new URL(String(value));
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(
      `audit(): ${name} must be an http(s) URL such as https://api.example.com; got "${value}".`,
    );
  }
  return url;
}

function checkPath(path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/') || /[\s#]/.test(path)) {
    throw new TypeError(`audit(): each path must start with "/" (e.g. /v1/books); got "${path}".`);
  }
  return path;
}

/** A list of rules or sections (`4.1`, `7`, `openapi`, `openapi.schema`), checked. */
function ruleList(name: string, rules: readonly string[] | undefined): string[] {
  return [...(rules ?? [])].map((rule) => {
    if (!/^(?:\d+(?:\.\d+)*|openapi(?:\.[a-z-]+)?)$/.test(rule)) {
      throw new TypeError(
        `audit(): ${name} takes spec sections such as 4.1 or 7, or openapi; got "${rule}".`,
      );
    }
    return rule;
  });
}

/** Checks `options` and fills in the defaults. */
export function resolveAuditOptions(options: AuditOptions): ResolvedAuditOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('audit(): pass an options object such as { baseUrl, paths }.');
  }
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      throw new TypeError(`audit(): unknown option "${key}"; known: ${[...known].join(', ')}.`);
    }
  }
  const url = httpUrl('baseUrl', options.baseUrl);
  const paths = (options.paths ?? []).map(checkPath);
  // A base URL that names a path (https://host/v1/books) audits that path.
  const own = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  if (own !== '' && paths.length === 0 && options.openapi === undefined) paths.push(own);
  const base = new URL(url.origin);
  if (paths.length === 0 && options.openapi === undefined) {
    throw new TypeError('audit(): give paths to audit (--path /v1/books) or an OpenAPI document.');
  }
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== 'string') {
      throw new TypeError(`audit(): header "${name}" needs a token name and a string value.`);
    }
    headers.push([name.toLowerCase(), value]);
  }
  const only = ruleList('only', options.only);
  const skip = ruleList('skip', options.skip);
  const client = options.client;
  if (
    client !== undefined &&
    (typeof client.id !== 'string' || typeof client.secret !== 'string')
  ) {
    throw new TypeError('audit(): client must be { id, secret }, both strings.');
  }
  return {
    base,
    paths: [...new Set(paths)],
    openapi: options.openapi,
    headers,
    origin: options.origin === undefined ? undefined : httpUrl('origin', options.origin).origin,
    allowWrites: options.allowWrites === true,
    allowBurst: options.allowBurst === true,
    only,
    skip,
    strict: options.strict === true,
    maxRequests: wholeNumber('maxRequests', options.maxRequests, 500, 1),
    concurrency: wholeNumber('concurrency', options.concurrency, 4, 1),
    timeoutMs: wholeNumber('timeoutMs', options.timeoutMs, 10_000, 1),
    client: client ? { id: client.id, secret: client.secret } : undefined,
  };
}
