/** The challenge of a 401 a host's companion raised (passport, @fastify/jwt, hono/jwt). */
import { ApiError, isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';

/** What a companion's 401 may carry: its code, and the response it would have sent. */
export interface ChallengedError {
  /** @fastify/jwt's code. */
  readonly code?: string;
  /** hono's `HTTPException`: the response it would send, whose challenge is kept. */
  readonly res?: { readonly headers?: { get?(name: string): string | null } };
}

/** The challenge the host's response already carries, as its header holds it. */
type ChallengeFacts = { readonly challenge?: string | readonly string[] | number | undefined };

// @fastify/jwt's codes for a token that was sent but cannot be accepted.
const refusedTokens = new Set([
  'FST_JWT_AUTHORIZATION_TOKEN_INVALID',
  'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED',
  'FST_JWT_AUTHORIZATION_TOKEN_UNTRUSTED',
  'FAST_JWT_MISSING_SIGNATURE',
]);
const sendable = /^[\t\x20-\x7e\x80-\xff]+$/;

/** The challenge an authentication companion gave with its 401: on the response, or its own. */
function challengeOf(e: ChallengedError, facts: ChallengeFacts): string | undefined {
  const onResponse =
    facts.challenge === undefined ? undefined : [facts.challenge].flat().join(', ');
  const given = onResponse ?? e.res?.headers?.get?.('www-authenticate') ?? undefined;
  return given !== undefined && sendable.test(given) ? given : undefined;
}

/**
 * A 401 always carries a challenge (RFC 9110 §11.6.1, RFC 6750 §3): the one the companion that
 * refused the caller gave (passport, hono/jwt), else the Bearer scheme's, `invalid_token` for a
 * token that was sent but refused (@fastify/jwt); such a refusal is the catalogue's 40101.
 */
export function withChallenge(error: unknown, e: ChallengedError, facts: ChallengeFacts): unknown {
  if (!isApiError(error) || error.status !== 401) return error;
  if (error.headers?.['www-authenticate'] !== undefined) return error;
  const refused = typeof e.code === 'string' && refusedTokens.has(e.code);
  const challenge = challengeOf(e, facts) ?? (refused ? 'Bearer error="invalid_token"' : 'Bearer');
  const code = /error="?invalid_token/.test(challenge) ? ErrorCode.InvalidToken : error.code;
  return new ApiError(401, code, error.message, {
    cause: e,
    headers: { ...error.headers, 'www-authenticate': challenge },
  });
}
