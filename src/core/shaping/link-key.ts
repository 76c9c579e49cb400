/** What a resource's link rules read of the caller, by default: its identity, as one string. */
import type { RequestContext } from '../kernel/context.ts';
import type { Identity } from '../kernel/identity.ts';

// Claims that differ from one token of the same caller to the next, and never decide a link.
const perToken = new Set(['jti', 'iat', 'exp', 'nbf', 'auth_time']);
// An identity serves every request of its cached token: its key is built once.
const keys = new WeakMap<Identity, string>();
let unique = 0;

function keyOf(identity: Identity): string {
  const claims: [string, unknown][] = [];
  const all = identity.claims ?? {};
  for (const name of Object.keys(all).sort()) {
    if (!perToken.has(name)) claims.push([name, all[name]]);
  }
  try {
    return JSON.stringify([
      identity.via,
      identity.subject ?? null,
      identity.clientId ?? null,
      [...identity.scopes].sort(),
      claims,
    ]);
  } catch {
    // A claim JSON cannot hold (a BigInt, a cycle): a key of this identity alone, shared with none.
    return `\u0000${++unique}`;
  }
}

/**
 * The default `linkKey` of a resource whose links have `when` rules: everything the identity
 * says (how it was established, subject, client, scopes, and its claims but the per-token ones),
 * or `''` without one. Two callers with equal keys see the same links on the same item.
 */
export function identityKey(ctx: RequestContext): string {
  const identity = ctx.identity;
  if (identity === undefined) return '';
  let key = keys.get(identity);
  if (key === undefined) {
    key = keyOf(identity);
    keys.set(identity, key);
  }
  return key;
}
