/** The registered clients of an OAuth server, checked and compiled once, at start-up. */
import { assertKnownKeys } from '../internal/options.ts';
import type { GrantType } from './options.ts';
import { digestOfHash, sha256 } from './secrets.ts';

/** A client as the request path reads it. */
export interface CompiledClient {
  readonly id: string;
  /** SHA-256 of the secret; `undefined` for a public client. */
  readonly secretDigest: Promise<Uint8Array> | undefined;
  readonly grants: ReadonlySet<GrantType>;
  readonly scopes: ReadonlySet<string>;
  readonly redirectUris: ReadonlySet<string>;
  readonly introspectAll: boolean;
}

const where = 'oauthServer';
const grantTypes: readonly GrantType[] = [
  'authorization_code',
  'client_credentials',
  'password',
  'refresh_token',
  'implicit',
];
const publicGrants = new Set<GrantType>(['authorization_code', 'refresh_token', 'implicit']);
// RFC 6749 §2.3.1 / Appendix A.1: client_id = *VSCHAR
const vschars = /^[\x20-\x7e]+$/;

/** A list option of non-empty strings, each matching `check` when given. */
export function stringList(name: string, value: unknown, check?: RegExp): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new TypeError(`${where}: \`${name}\` must be a list of non-empty strings.`);
  }
  for (const v of value as string[]) {
    if (check && !check.test(v)) {
      throw new TypeError(
        `${where}: \`${name}\` holds "${v}", which has a character not allowed there.`,
      );
    }
  }
  return value as string[];
}

/**
 * The SHA-256 of a client's secret, given as is or as `hashClientSecret()` made it; none for a
 * public client.
 */
function secretDigestOf(c: Record<string, unknown>, id: string): Promise<Uint8Array> | undefined {
  if (c.secret !== undefined && c.secretHash !== undefined) {
    throw new TypeError(
      `${where}: client "${id}" has both \`secret\` and \`secretHash\`; keep only \`secretHash\`.`,
    );
  }
  if (c.secret !== undefined) {
    if (typeof c.secret !== 'string' || c.secret === '') {
      throw new TypeError(
        `${where}: client "${id}" has an empty \`secret\`; give a long random string.`,
      );
    }
    return sha256(c.secret);
  }
  if (c.secretHash !== undefined) {
    const digest = typeof c.secretHash === 'string' ? digestOfHash(c.secretHash) : undefined;
    if (!digest) {
      throw new TypeError(
        `${where}: client "${id}" has a \`secretHash\` that hashClientSecret() did not make ("sha256:…").`,
      );
    }
    return Promise.resolve(digest);
  }
  return undefined;
}

function compileClient(raw: unknown, index: number, scopes: ReadonlySet<string>): CompiledClient {
  const at = `clients[${index}]`;
  assertKnownKeys(`${where}: ${at}`, raw as object, [
    'id',
    'secret',
    'secretHash',
    'grants',
    'scopes',
    'redirectUris',
    'introspectAll',
  ]);
  const c = raw as Record<string, unknown>;
  if (typeof c.id !== 'string' || !vschars.test(c.id)) {
    throw new TypeError(`${where}: ${at}.id must be a non-empty string of printable ASCII.`);
  }
  const secretDigest = secretDigestOf(c, c.id);
  const grants = new Set(stringList(`${at}.grants`, c.grants) as GrantType[]);
  for (const grant of grants) {
    if (!grantTypes.includes(grant)) {
      throw new TypeError(
        `${where}: client "${c.id}" names the grant "${grant}"; use ${grantTypes.join(', ')}.`,
      );
    }
    if (secretDigest === undefined && !publicGrants.has(grant)) {
      throw new TypeError(
        `${where}: client "${c.id}" has no secret, so it cannot use the ${grant} grant; give it a \`secretHash\`.`,
      );
    }
  }
  const clientScopes = c.scopes === undefined ? [...scopes] : stringList(`${at}.scopes`, c.scopes);
  for (const s of clientScopes) {
    if (!scopes.has(s))
      throw new TypeError(
        `${where}: client "${c.id}" names the scope "${s}", which is not in \`scopes\`.`,
      );
  }
  const redirectUris =
    c.redirectUris === undefined ? [] : stringList(`${at}.redirectUris`, c.redirectUris);
  for (const uri of redirectUris) {
    // RFC 6749 §3.1.2: absolute, no fragment.
    if (!URL.canParse(uri) || uri.includes('#')) {
      throw new TypeError(
        `${where}: client "${c.id}" has the redirect URI "${uri}", which is not an absolute URI without a fragment.`,
      );
    }
  }
  if ((grants.has('authorization_code') || grants.has('implicit')) && redirectUris.length === 0) {
    throw new TypeError(
      `${where}: client "${c.id}" uses the authorization endpoint, so it needs \`redirectUris\`.`,
    );
  }
  return {
    id: c.id,
    secretDigest,
    grants,
    scopes: new Set(clientScopes),
    redirectUris: new Set(redirectUris),
    introspectAll: c.introspectAll === true,
  };
}

/** The registered clients by id; a duplicate id or a mistake in one is a `TypeError`. */
export function compileClients(
  raw: unknown,
  scopes: ReadonlySet<string>,
): ReadonlyMap<string, CompiledClient> {
  if (!Array.isArray(raw)) throw new TypeError(`${where}: \`clients\` must be a list of clients.`);
  const clients = new Map<string, CompiledClient>();
  raw.forEach((entry, i) => {
    const client = compileClient(entry, i, scopes);
    if (clients.has(client.id))
      throw new TypeError(`${where}: two clients have the id "${client.id}".`);
    clients.set(client.id, client);
  });
  return clients;
}
