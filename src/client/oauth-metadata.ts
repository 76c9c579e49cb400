/**
 * The authorization server's endpoints, from the options or its RFC 8414 metadata, accepted only
 * from the issuer that was asked for (§3.3) and only on origins the client may send credentials
 * to: the issuer's, and those the caller listed.
 */
import { ApiResponseError } from './errors.ts';
import { httpOrigin } from './origins.ts';
import { readJson } from './read-body.ts';
import { ClientRefusedError } from './refused.ts';

/** Where the client gets and sends its tokens. */
export interface Endpoints {
  /** The issuer the metadata named, when it was read or given. */
  readonly issuer: string | undefined;
  readonly token: string;
  readonly authorization: string | undefined;
}

/** What discovery needs to know. */
interface DiscoveryConfig {
  /** The issuer asked for: the option's, else the base URL's origin. */
  readonly issuer: string;
  /** Whether `issuer` was given (compared exactly) or taken from the base URL. */
  readonly issuerGiven: boolean;
  /** Origins besides the issuer's that the endpoints may be on. */
  readonly allowed: ReadonlySet<string>;
  readonly fetch: typeof fetch;
  readonly maxBodySize: number;
}

/** The metadata URL of an issuer (RFC 8414 §3.1): the well-known segment before its path. */
function metadataUrl(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/oauth-authorization-server${path}`;
}

/** The endpoint `name` of `body`, checked; `undefined` when absent and not `required`. */
function endpointOf(
  c: DiscoveryConfig,
  from: string,
  body: Record<string, unknown>,
  name: string,
  required: boolean,
): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) {
    throw new ApiResponseError('GET', from, 502, new Headers(), body);
  }
  const own = new URL(c.issuer).origin;
  const origin = httpOrigin(url);
  if (origin === own || (origin !== undefined && c.allowed.has(origin))) return url.href;
  const downgrade = own.startsWith('https:') && url.protocol === 'http:';
  throw new ClientRefusedError(
    downgrade ? 'downgrade' : 'origin',
    url.href,
    `GET ${from}: the metadata's ${name} (${url.href}) is ${downgrade ? 'plain http' : 'on another origin'}; ` +
      `the client sends credentials only to the issuer's origin (${own}). ` +
      'List its origin in oauth.allowedOrigins if that server is yours.',
  );
}

/** The issuer's metadata, read and checked (RFC 8414 §3, §3.3). */
export async function discover(c: DiscoveryConfig): Promise<Endpoints> {
  const url = metadataUrl(c.issuer);
  const res = await c.fetch(url, { headers: { accept: 'application/json' } });
  const body = await readJson(res, c.maxBodySize, 'GET', url);
  if (!res.ok || typeof body !== 'object' || body === null) {
    throw new ApiResponseError('GET', url, res.ok ? 502 : res.status, res.headers, body);
  }
  const record = body as Record<string, unknown>;
  const issuer = record.issuer;
  // §3.3: identical to the issuer the URL was made from. An issuer taken from the base URL is its
  // origin, which a server may spell with its trailing slash.
  const same =
    typeof issuer === 'string' &&
    (issuer === c.issuer || (!c.issuerGiven && issuer === `${c.issuer}/`));
  if (!same) {
    throw new ClientRefusedError(
      'issuer',
      url,
      `GET ${url}: the metadata names the issuer ${JSON.stringify(issuer)}, not "${c.issuer}" that it was asked for (RFC 8414 §3.3); the client does not use it.`,
    );
  }
  return {
    issuer,
    token: endpointOf(c, url, record, 'token_endpoint', true)!,
    authorization: endpointOf(c, url, record, 'authorization_endpoint', false),
  };
}
