/** {@link OAuthServerOptions} checked and compiled once, at start-up (CONTRIBUTING.md rule 5). */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { type GuardedStore, guardStore } from '../stores/guard-store.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import { type FailureLimits, resolveBruteForce } from './brute-force-options.ts';
import { type CompiledClient, compileClients, stringList } from './compile-clients.ts';
import { compileIssuer } from './issuer.ts';
import type { AccessTokenSide, OAuthServerOptions } from './options.ts';
import { sha256 } from './secrets.ts';

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
// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

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

/**
 * The store of the server's state and that of its failure counters, each behind the store guard;
 * a memory store that refuses when full adds a warning.
 */
function stateStores(
  given: OAuthServerOptions['store'],
  bruteForce: FailureLimits | undefined,
  warnings: string[],
): { store: GuardedStore; counterStore: GuardedStore } {
  // The server's state fails closed when evicted (a lost record is an unknown token, a lost claim
  // a replay that revokes), so a full memory store evicts its oldest keys rather than refuse
  // every new sign-in (docs/oauth.md#state).
  const store = given ?? new MemoryStore({ whenFull: 'evict' });
  if (store instanceof MemoryStore && store.whenFull === 'refuse') warnings.push(refusingStore);
  // A memory store is this process's alone, so the counters lose nothing by living in one of
  // their own that evicts when full: a flood of failed logins then never takes the room that
  // refresh-token families and codes need. A shared store (Redis) keeps them beside the rest.
  const counterStore =
    bruteForce === undefined
      ? store
      : (bruteForce.store ?? (store instanceof MemoryStore ? countersBeside(store) : store));
  return {
    store: guardStore(store, { prefix: 'oauth:' }),
    counterStore: guardStore(counterStore, { prefix: 'oauth:' }),
  };
}

/** A whole number option from 1 to `max` (seconds, or a count), or its default. */
function seconds(name: string, value: unknown, fallback: number, max: number): number {
  return value === undefined ? fallback : assertInteger(`${where}: \`${name}\``, value, 1, max);
}

/** `verifyUser`: a function, required when a client has the password grant. */
function checkVerifyUser(
  verifyUser: OAuthServerOptions['verifyUser'],
  clients: ReadonlyMap<string, CompiledClient>,
): void {
  if (verifyUser !== undefined && typeof verifyUser !== 'function') {
    throw new TypeError(
      `${where}: \`verifyUser\` must be a function (username, password, ctx) => user | undefined.`,
    );
  }
  if (!verifyUser && [...clients.values()].some((c) => c.grants.has('password'))) {
    throw new TypeError(
      `${where}: a client has the password grant, so give \`verifyUser\` to check passwords.`,
    );
  }
}

/**
 * The server's endpoints under `basePath`, once `audience` and `authorizationEndpoint` are
 * checked.
 */
function endpointPaths(options: OAuthServerOptions): ResolvedOAuth['paths'] {
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
  return {
    token: `${basePath}/token`,
    revoke: `${basePath}/revoke`,
    introspect: `${basePath}/introspect`,
    jwks: `${basePath}/jwks`,
    metadata: '/.well-known/oauth-authorization-server',
  };
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
  const clients = compileClients(options.clients, scopes);
  checkVerifyUser(options.verifyUser, clients);
  const paths = endpointPaths(options);
  const { issuerOf, warning } = compileIssuer(options.issuer);
  const audience = options.audience;
  const bruteForce = resolveBruteForce(options.bruteForce);
  const warnings = warning === undefined ? [] : [warning];
  const { store, counterStore } = stateStores(options.store, bruteForce, warnings);
  return {
    clients,
    scopes,
    publicScopes,
    verifyUser: options.verifyUser,
    tokens: options.tokens,
    issuerOf,
    audienceOf: audience !== undefined ? () => audience : issuerOf,
    warnings,
    store,
    counterStore,
    accessTokenTtl: seconds('accessTokenTtl', options.accessTokenTtl, 3600, 86_400 * 7),
    refreshTokenTtl: seconds('refreshTokenTtl', options.refreshTokenTtl, 1_209_600, 86_400 * 365),
    codeTtl: seconds('codeTtl', options.codeTtl, 60, 600),
    maxRefreshFamilies: seconds('maxRefreshFamilies', options.maxRefreshFamilies, 10, 1000),
    clientSecretPost: options.clientSecretPost === true,
    paths,
    authorizationEndpoint: options.authorizationEndpoint,
    bruteForce,
    decoy: sha256('decoy: no such client'),
  };
}
