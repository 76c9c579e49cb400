/** {@link OAuthServerOptions} checked and compiled once, at start-up (CONTRIBUTING.md rule 5). */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { type GuardedStore, guardStore } from '../stores/guard-store.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import { type FailureLimits, resolveBruteForce } from './brute-force-options.ts';
import { compileIssuer } from './issuer.ts';
import type { AccessTokenSide, GrantType, OAuthServerOptions } from './options.ts';
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

/** The compiled options. */
export interface ResolvedOAuth {
  readonly clients: ReadonlyMap<string, CompiledClient>;
  readonly scopes: ReadonlySet<string>;
  readonly publicScopes: ReadonlySet<string>;
  readonly verifyUser: OAuthServerOptions['verifyUser'];
  readonly tokens: AccessTokenSide;
  readonly issuerOf: (ctx: RequestContext) => string;
  readonly audienceOf: (ctx: RequestContext) => string;
  /** Start-up warnings (an issuer taken from each request in production), logged at set-up. */
  readonly warnings: readonly string[];
  readonly store: GuardedStore;
  readonly accessTokenTtl: number;
  readonly refreshTokenTtl: number;
  readonly codeTtl: number;
  readonly maxRefreshFamilies: number;
  readonly clientSecretPost: boolean;
  readonly paths: {
    token: string;
    revoke: string;
    introspect: string;
    jwks: string;
    metadata: string;
  };
  readonly authorizationEndpoint: string | undefined;
  readonly bruteForce: FailureLimits | undefined;
  /** Where the failure counters live: a budget of their own (see `BruteForceOptions.store`). */
  readonly counterStore: GuardedStore;
  /** A digest compared against when the client is unknown, so both cases take the same work. */
  readonly decoy: Promise<Uint8Array>;
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
// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
// RFC 6749 §2.3.1 / Appendix A.1: client_id = *VSCHAR
const vschars = /^[\x20-\x7e]+$/;

function stringList(name: string, value: unknown, check?: RegExp): string[] {
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
  if (c.secret !== undefined && c.secretHash !== undefined) {
    throw new TypeError(
      `${where}: client "${c.id}" has both \`secret\` and \`secretHash\`; keep only \`secretHash\`.`,
    );
  }
  let secretDigest: Promise<Uint8Array> | undefined;
  if (c.secret !== undefined) {
    if (typeof c.secret !== 'string' || c.secret === '') {
      throw new TypeError(
        `${where}: client "${c.id}" has an empty \`secret\`; give a long random string.`,
      );
    }
    secretDigest = sha256(c.secret);
  } else if (c.secretHash !== undefined) {
    const digest = typeof c.secretHash === 'string' ? digestOfHash(c.secretHash) : undefined;
    if (!digest) {
      throw new TypeError(
        `${where}: client "${c.id}" has a \`secretHash\` that hashClientSecret() did not make ("sha256:…").`,
      );
    }
    secretDigest = Promise.resolve(digest);
  }
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

// Servers sharing one memory store share its counters' store too.
const counterStores = new WeakMap<MemoryStore, MemoryStore>();
function countersBeside(store: MemoryStore): MemoryStore {
  let counters = counterStores.get(store);
  if (counters === undefined) {
    counters = new MemoryStore({ whenFull: 'evict' });
    counterStores.set(store, counters);
  }
  return counters;
}

const refusingStore =
  "oauthServer: its store is a MemoryStore that refuses new keys when full (whenFull: 'refuse'), so once full every new sign-in is a 503 until keys expire. Give the server a MemoryStore of its own with whenFull: 'evict' (or no store: that is the default), or a shared store (docs/oauth.md#state).";

/** A whole number option from 1 to `max` (seconds, or a count), or its default. */
function seconds(name: string, value: unknown, fallback: number, max: number): number {
  return value === undefined ? fallback : assertInteger(`${where}: \`${name}\``, value, 1, max);
}

/** Checks and compiles the options; every mistake is a `TypeError` that says how to fix it. */
export function resolveOAuthOptions(options: OAuthServerOptions): ResolvedOAuth {
  assertKnownKeys(where, options, [
    'clients',
    'tokens',
    'scopes',
    'publicScopes',
    'verifyUser',
    'issuer',
    'audience',
    'store',
    'accessTokenTtl',
    'refreshTokenTtl',
    'codeTtl',
    'clientSecretPost',
    'basePath',
    'authorizationEndpoint',
    'bruteForce',
    'maxRefreshFamilies',
  ]);
  if (typeof options?.tokens?.issue !== 'function') {
    throw new TypeError(`${where}: \`tokens.issue\` must be a function that issues access tokens.`);
  }
  const scopes = new Set(stringList('scopes', options.scopes, scopeToken));
  const publicScopes = new Set(stringList('publicScopes', options.publicScopes ?? []));
  for (const s of publicScopes) {
    if (!scopes.has(s))
      throw new TypeError(`${where}: the public scope "${s}" is not in \`scopes\`.`);
  }
  if (!Array.isArray(options.clients))
    throw new TypeError(`${where}: \`clients\` must be a list of clients.`);
  const clients = new Map<string, CompiledClient>();
  options.clients.forEach((raw, i) => {
    const client = compileClient(raw, i, scopes);
    if (clients.has(client.id))
      throw new TypeError(`${where}: two clients have the id "${client.id}".`);
    clients.set(client.id, client);
  });
  const needsUsers = [...clients.values()].some(
    (c) =>
      c.grants.has('password') || c.grants.has('authorization_code') || c.grants.has('implicit'),
  );
  if (options.verifyUser !== undefined && typeof options.verifyUser !== 'function') {
    throw new TypeError(
      `${where}: \`verifyUser\` must be a function (username, password, ctx) => user | undefined.`,
    );
  }
  if (
    needsUsers &&
    [...clients.values()].some((c) => c.grants.has('password')) &&
    !options.verifyUser
  ) {
    throw new TypeError(
      `${where}: a client has the password grant, so give \`verifyUser\` to check passwords.`,
    );
  }
  for (const name of ['audience', 'authorizationEndpoint'] as const) {
    const v = options[name];
    if (
      v !== undefined &&
      (typeof v !== 'string' ||
        (name === 'authorizationEndpoint' && !v.startsWith('/') && !URL.canParse(v)))
    ) {
      throw new TypeError(`${where}: \`${name}\` must be an absolute URL.`);
    }
  }
  const basePath = options.basePath ?? '/v1/oauth2';
  if (!/^(\/[a-z0-9-]+)+$/.test(basePath)) {
    throw new TypeError(`${where}: \`basePath\` must be a lower-case path such as "/v1/oauth2".`);
  }
  const { issuerOf, warning } = compileIssuer(options.issuer);
  const audience = options.audience;
  const bruteForce = resolveBruteForce(options.bruteForce);
  // The server's state fails closed when evicted (a lost record is an unknown token, a lost claim
  // a replay that revokes), so a full memory store evicts its oldest keys rather than refuse
  // every new sign-in (docs/oauth.md#state).
  const store = options.store ?? new MemoryStore({ whenFull: 'evict' });
  const warnings = warning === undefined ? [] : [warning];
  if (store instanceof MemoryStore && store.whenFull === 'refuse') warnings.push(refusingStore);
  // A memory store is this process's alone, so the counters lose nothing by living in one of
  // their own that evicts when full: a flood of failed logins then never takes the room that
  // refresh-token families and codes need. A shared store (Redis) keeps them beside the rest.
  const counterStore =
    bruteForce === undefined
      ? store
      : (bruteForce.store ?? (store instanceof MemoryStore ? countersBeside(store) : store));
  return {
    clients,
    scopes,
    publicScopes,
    verifyUser: options.verifyUser,
    tokens: options.tokens,
    issuerOf,
    audienceOf: audience !== undefined ? () => audience : issuerOf,
    warnings,
    store: guardStore(store, { prefix: 'oauth:' }),
    counterStore: guardStore(counterStore, { prefix: 'oauth:' }),
    accessTokenTtl: seconds('accessTokenTtl', options.accessTokenTtl, 3600, 86_400 * 7),
    refreshTokenTtl: seconds('refreshTokenTtl', options.refreshTokenTtl, 1_209_600, 86_400 * 365),
    codeTtl: seconds('codeTtl', options.codeTtl, 60, 600),
    maxRefreshFamilies: seconds('maxRefreshFamilies', options.maxRefreshFamilies, 10, 1000),
    clientSecretPost: options.clientSecretPost === true,
    paths: {
      token: `${basePath}/token`,
      revoke: `${basePath}/revoke`,
      introspect: `${basePath}/introspect`,
      jwks: `${basePath}/jwks`,
      metadata: '/.well-known/oauth-authorization-server',
    },
    authorizationEndpoint: options.authorizationEndpoint,
    bruteForce,
    decoy: sha256('decoy: no such client'),
  };
}
