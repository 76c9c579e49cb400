/** Scope strings (RFC 6749 §3.3): parsed, checked against what is known and narrowed to what is allowed. */
import { oauthError } from './errors.ts';

// RFC 6749 §3.3: scope = scope-token *( SP scope-token ); scope-token = 1*NQCHAR
const scopeSyntax = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/**
 * The scopes of a `scope` parameter; `undefined` when it was not sent. Malformed text and
 * unknown scopes are `invalid_scope`, and the message never repeats what the client sent.
 */
export function parseScope(
  value: string | undefined,
  known: ReadonlySet<string>,
): Set<string> | undefined {
  if (value === undefined) return undefined;
  // Cost: linear in the value (single-space separators make the pattern unambiguous).
  if (!scopeSyntax.test(value)) {
    throw oauthError('invalid_scope', 'The scope must be scope names separated by single spaces.');
  }
  const scopes = new Set(value.split(' '));
  for (const scope of scopes) {
    if (!known.has(scope))
      throw oauthError('invalid_scope', 'The scope names a scope this server does not know.');
  }
  return scopes;
}

/** The scopes of `wanted` (all of `allowed` when nothing was asked for) that `allowed` holds, in a stable order. */
export function narrowScope(
  wanted: ReadonlySet<string> | undefined,
  allowed: ReadonlySet<string>,
): string[] {
  const granted: string[] = [];
  for (const scope of wanted ?? allowed) if (allowed.has(scope)) granted.push(scope);
  if (granted.length === 0) {
    throw oauthError(
      'invalid_scope',
      wanted === undefined
        ? 'No scope can be granted to this client.'
        : 'None of the requested scopes can be granted to this client.',
    );
  }
  return granted.sort();
}

/** The intersection of two scope sets. */
export function intersect(a: ReadonlySet<string>, b: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const s of b) if (a.has(s)) out.add(s);
  return out;
}

/** Whether the granted scope differs from the one requested (then the answer names it, RFC 6749 §5.1). */
export function differs(
  wanted: ReadonlySet<string> | undefined,
  granted: readonly string[],
): boolean {
  if (wanted === undefined) return true;
  if (wanted.size !== granted.length) return true;
  return granted.some((s) => !wanted.has(s));
}
