/** Token revocation (RFC 7009) and introspection (RFC 7662), both behind client authentication. */
import { ok, type Reply } from '../http/reply.ts';
import type { RequestContext } from '../kernel/context.ts';
import { withAttempt } from './brute-force.ts';
import { authenticateClient } from './client-auth.ts';
import { oauthError } from './errors.ts';
import { formParams, required } from './form.ts';
import { knownParams, noStore, type TokenState } from './token-endpoint.ts';

const hints = new Set(['access_token', 'refresh_token']);
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The `token_type_hint`, checked: RFC 7009 §2.2.1 `unsupported_token_type` for a type we do not hold. */
function hintOf(value: string | undefined): string | undefined {
  if (value !== undefined && !hints.has(value)) {
    throw oauthError(
      'unsupported_token_type',
      'The token_type_hint must be access_token or refresh_token.',
    );
  }
  return value;
}

/** Verified claims of an access token, or `undefined` for any token the verifier refuses. */
async function claimsOf(
  s: TokenState,
  token: string,
  ctx: RequestContext,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  const verify = s.options.tokens.verify;
  if (verify === undefined || !jwtShape.test(token)) return undefined;
  try {
    return await verify(token, ctx);
  } catch {
    return undefined;
  }
}

/**
 * The revocation endpoint's handler. RFC 7009 §2.2: an unknown or invalid token, or one issued
 * to another client, is answered 200 as well, so the endpoint tells nobody which tokens exist.
 * A refresh token revokes its whole family; an access token its `jti` until it expires.
 */
export function revocationEndpoint(s: TokenState): (ctx: RequestContext) => Promise<Reply> {
  return async (ctx) => {
    const p = formParams(ctx.body, knownParams);
    const { client } = await withAttempt(s.counter, ctx, (attempt) =>
      authenticateClient(ctx, p, s.options, attempt, true),
    );
    const token = required(p, 'token');
    const hint = hintOf(p.get('token_type_hint'));
    if (!(await s.refresh.revoke(token, client.id, ctx))) {
      const { revoke } = s.options.tokens;
      if (revoke === undefined) {
        if (hint === 'access_token') {
          throw oauthError('unsupported_token_type', 'This server cannot revoke access tokens.');
        }
      } else {
        const claims = await claimsOf(s, token, ctx);
        const { jti, exp, client_id: owner } = (claims ?? {}) as Record<string, unknown>;
        if (owner === client.id && typeof jti === 'string' && typeof exp === 'number') {
          await revoke(jti, exp);
        }
      }
    }
    return ok({}, noStore);
  };
}

/**
 * RFC 7662 §2.2 introspection answer.
 *
 * @category OAuth server
 */
export interface IntrospectionResponse {
  /** Whether the token is active; when `false`, nothing else is said. */
  active: boolean;
  /** Further members of RFC 7662 §2.2 (`scope`, `client_id`, `sub`, `exp`…). */
  [member: string]: unknown;
}

const claimNames = ['scope', 'client_id', 'sub', 'exp', 'iat', 'nbf', 'iss', 'aud', 'jti'];

/**
 * The introspection endpoint's handler. A client sees the tokens issued to it; one configured
 * with `introspectAll` (a resource server) sees any. Everything else is `{"active":false}`.
 */
export function introspectionEndpoint(
  s: TokenState,
): (ctx: RequestContext) => Promise<Reply<IntrospectionResponse>> {
  return async (ctx) => {
    const p = formParams(ctx.body, knownParams);
    const { client } = await withAttempt(s.counter, ctx, (attempt) =>
      authenticateClient(ctx, p, s.options, attempt, false),
    );
    const token = required(p, 'token');
    hintOf(p.get('token_type_hint'));
    const visible = (owner: unknown) => owner === client.id || client.introspectAll;
    const record = await s.refresh.find(token, ctx);
    if (record !== undefined && visible(record.c)) {
      return ok(
        {
          active: true,
          token_type: 'refresh_token',
          client_id: record.c,
          scope: record.sc,
          ...(record.s !== undefined ? { sub: record.s } : {}),
          exp: Math.floor(record.exp / 1000),
          iss: s.options.issuerOf(ctx),
        },
        noStore,
      );
    }
    const claims = record === undefined ? await claimsOf(s, token, ctx) : undefined;
    if (claims !== undefined && visible(claims.client_id)) {
      const body: IntrospectionResponse = { active: true, token_type: 'Bearer' };
      for (const name of claimNames) if (claims[name] !== undefined) body[name] = claims[name];
      return ok(body, noStore);
    }
    return ok({ active: false }, noStore);
  };
}
