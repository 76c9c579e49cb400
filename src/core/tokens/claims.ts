/** What a verified access token's claims say: the caller's identity, scopes and audience. */
import type { Identity } from '../kernel/identity.ts';
import type { TokenAlgorithm } from './keys.ts';

/**
 * How the claims of a verified token become an identity: RFC 9068 (the library's own tokens,
 * `client_id` and `jti` required), or as identity providers issue them (`azp`, `scp`…).
 */
export interface ClaimRules {
  /** `at+jwt` only (RFC 9068), or also `JWT` and no `typ`. */
  typ: 'at+jwt' | 'jwt';
  /** The algorithms accepted. */
  algorithms: readonly TokenAlgorithm[];
  /** Whether `client_id` and `jti` must be present (RFC 9068 §2.2). */
  strict: boolean;
  /** The clients whose tokens are accepted (`clientIds`), or `undefined` for any. */
  clients?: ReadonlySet<string> | undefined;
  /** The scopes of the claims; `undefined` when a claim has the wrong type. */
  scopes: (claims: Readonly<Record<string, unknown>>) => readonly string[] | undefined;
}

/**
 * A set that cannot change once built: one identity serves every request of its cached token,
 * so a handler that added a scope to it would grant that scope to later requests.
 */
class ScopeSet extends Set<string> {
  private sealed = false;
  constructor(scopes: readonly string[]) {
    super(scopes);
    this.sealed = true;
  }
  override add(scope: string): this {
    if (this.sealed) throw new TypeError('The scopes of a verified token cannot change.');
    return super.add(scope);
  }
  override delete(_scope: string): boolean {
    throw new TypeError('The scopes of a verified token cannot change.');
  }
  override clear(): void {
    throw new TypeError('The scopes of a verified token cannot change.');
  }
}

/** Whether a token's `aud` holds one of the accepted audiences (any, when `wanted` is `null`). */
export function audienceOk(
  has: readonly string[],
  wanted: string | readonly string[] | null,
): boolean {
  if (wanted === null) return true;
  if (typeof wanted === 'string') return has.includes(wanted);
  for (const a of wanted) if (has.includes(a)) return true;
  return false;
}

// The claims that name the client: RFC 9068's, then OIDC's authorized party, Okta's and Entra's.
const clientClaims = ['client_id', 'azp', 'cid', 'appid'];

/** The identity a verified payload gives; `undefined` when a claim is missing or has the wrong type. */
export function identityFromClaims(
  payload: Record<string, unknown>,
  rules: ClaimRules,
): Identity | undefined {
  const { sub, jti } = payload;
  if (typeof sub !== 'string' || sub === '') return undefined;
  let clientId: string | undefined;
  for (const name of rules.strict ? ['client_id'] : clientClaims) {
    const value = payload[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') return undefined;
    clientId = value;
    break;
  }
  if (rules.strict && clientId === undefined) return undefined;
  if (rules.clients !== undefined && (clientId === undefined || !rules.clients.has(clientId))) {
    return undefined;
  }
  // Cognito marks its tokens: an ID token (`token_use: id`) is never an access token.
  if (payload.token_use !== undefined && payload.token_use !== 'access') return undefined;
  if (jti !== undefined && (typeof jti !== 'string' || jti === '')) return undefined;
  if (rules.strict && jti === undefined) return undefined;
  const list = rules.scopes(payload);
  if (list === undefined) return undefined;
  return Object.freeze({
    // RFC 9068 §2.2: without a resource owner, sub names the client.
    subject: sub === clientId ? undefined : sub,
    clientId,
    scopes: new ScopeSet(list),
    via: 'bearer',
    claims: Object.freeze({ ...payload }),
  });
}

/**
 * The scopes of `scope` (a space-separated string, RFC 8693 §4.2, RFC 9068 §2.2.3) and `scp` (a
 * string or an array of strings, as Okta and Entra ID issue it); `undefined` when either has
 * another type.
 */
export function standardScopes(claims: Readonly<Record<string, unknown>>): string[] | undefined {
  const { scope, scp } = claims;
  if (scope !== undefined && typeof scope !== 'string') return undefined;
  const out = scope === undefined ? [] : scope.split(' ').filter((s) => s !== '');
  if (typeof scp === 'string') {
    for (const s of scp.split(' ')) if (s !== '') out.push(s);
  } else if (Array.isArray(scp) && scp.every((s) => typeof s === 'string')) {
    for (const s of scp) if (s !== '') out.push(s);
  } else if (scp !== undefined) return undefined;
  return out;
}
