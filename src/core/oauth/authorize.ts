/** Helpers for a service's own authorization endpoint (RFC 6749 §4.1.1, §4.2.1, RFC 7636 §4.3). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { ok, type Reply } from '../http/reply.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import type { FailureCounter } from './brute-force.ts';
import type { AuthorizationCodes } from './codes.ts';
import { type OAuthErrorWord, oauthError } from './errors.ts';
import type { OAuthServerOptions, OAuthUser } from './options.ts';
import type { CompiledClient, ResolvedOAuth } from './resolve.ts';
import { intersect, narrowScope, parseScope } from './scopes.ts';
import { signInWith } from './sign-in.ts';
import { knownParams } from './token-endpoint.ts';

export type { AuthorizationRequest } from './authorization-request.ts';

/**
 * The outcome of {@link AuthorizationHelpers.check}: the request to show the user, or the
 * redirect that tells the client what was wrong (RFC 6749 §4.1.2.1).
 *
 * @category OAuth server
 */
export type AuthorizationCheck =
  | {
      /** The checked request. */
      request: AuthorizationRequest;
      /** Absent: nothing to redirect. */
      redirect?: undefined;
    }
  | {
      /** Absent: the request failed. */
      request?: undefined;
      /** The 302 to the client's redirect URI with `error`, `error_description` and `state`. */
      redirect: Reply;
    };

/**
 * What a service's authorization endpoint calls: `check` the request, authenticate the user its
 * own way, then `approve` (a one-time code, or a token for the implicit grant) or `deny`.
 *
 * @category OAuth server
 */
export interface AuthorizationHelpers {
  /**
   * Checks an authorization request's parameters. An unknown client or an unregistered
   * `redirect_uri` throws a 400 (never redirected: RFC 6749 §4.1.2.1); any other problem is a
   * redirect to the client with `error`.
   */
  check(
    params: URLSearchParams | Readonly<Record<string, unknown>>,
    ctx: RequestContext,
  ): AuthorizationCheck;
  /** The user approved: redirects with a one-time code (or, implicit, a token in the fragment). */
  approve(
    request: AuthorizationRequest,
    user: OAuthUser,
    ctx: RequestContext,
    status?: 302 | 303,
  ): Promise<Reply>;
  /** The user refused, or could not sign in: redirects with `access_denied`. */
  deny(request: AuthorizationRequest, ctx: RequestContext, status?: 302 | 303): Reply;
  /**
   * Checks the password a sign-in form got for `request`, counted with the token endpoint's
   * failed logins (per username, per client and network, per client; see `bruteForce`): resolves
   * to the user, or `undefined` for a wrong password or an unknown user. Past a limit it rejects
   * with the 429, the right password included, so no code is issued. `verify` defaults to the
   * server's `verifyUser`.
   */
  signIn(
    request: AuthorizationRequest,
    username: string,
    password: string,
    ctx: RequestContext,
    verify?: OAuthServerOptions['verifyUser'],
  ): Promise<OAuthUser | undefined>;
}

// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters.
const challengeSyntax = /^[A-Za-z0-9_-]{43}$/;
const vschar = /^[\x20-\x7e]{1,512}$/;

function single(params: URLSearchParams | Readonly<Record<string, unknown>>): Map<string, string> {
  const out = new Map<string, string>();
  const entries = params instanceof URLSearchParams ? [...params] : Object.entries(params);
  for (const [name, value] of entries) {
    if (out.has(name) || Array.isArray(value)) {
      throw oauthError(
        'invalid_request',
        `${knownParams.has(name) || name === 'response_type' || name === 'state' ? `The parameter ${name} was` : 'A parameter was'} sent more than once.`,
        { code: ErrorCode.OAuthRepeatedParameter },
      );
    }
    if (typeof value === 'string' && value !== '') out.set(name, value);
  }
  return out;
}

function redirectTo(url: string, status: number): Reply {
  const r = ok(undefined, { location: url, 'cache-control': 'no-store' });
  r.status = status;
  return r;
}

/** Builds the helpers over a server's options, codes and failure counter. */
export function authorizationHelpers(
  o: ResolvedOAuth,
  { codes, counter }: { codes: AuthorizationCodes; counter: FailureCounter | undefined },
  implicitToken: (
    client: CompiledClient,
    subject: string,
    scope: string,
    ctx: RequestContext,
  ) => Promise<{ token: string; expiresIn: number }>,
): AuthorizationHelpers {
  const answer = (
    request: AuthorizationRequest,
    ctx: RequestContext,
    values: Record<string, string>,
    status: number,
  ) => {
    const url = new URL(request.redirectUri);
    const all = {
      ...values,
      ...(request.state !== undefined ? { state: request.state } : {}),
      iss: o.issuerOf(ctx),
    };
    if (request.responseType === 'token') {
      // RFC 6749 §4.2.2: the implicit answer travels in the fragment, never to a server.
      url.hash = new URLSearchParams(all).toString();
    } else {
      for (const [k, v] of Object.entries(all)) url.searchParams.append(k, v);
    }
    return redirectTo(url.href, status);
  };
  const failWith = (
    request: AuthorizationRequest,
    ctx: RequestContext,
    word: OAuthErrorWord,
    description: string,
  ) => ({
    redirect: answer(request, ctx, { error: word, error_description: description }, 302),
  });

  return {
    signIn: signInWith(o, counter),

    check(params, ctx) {
      const p = single(params);
      const client = o.clients.get(p.get('client_id') ?? '');
      if (client === undefined) {
        throw new ApiError(
          400,
          ErrorCode.OAuthInvalidRedirect,
          'The client_id is missing or names no registered client.',
        );
      }
      const given = p.get('redirect_uri');
      const only = client.redirectUris.size === 1 ? [...client.redirectUris][0] : undefined;
      const redirectUri = given ?? only;
      if (redirectUri === undefined || !client.redirectUris.has(redirectUri)) {
        // RFC 9700 §2.1: exact string comparison; never redirect to an unregistered URI.
        throw new ApiError(
          400,
          ErrorCode.OAuthInvalidRedirect,
          'The redirect_uri is missing or is not registered for this client.',
        );
      }
      const state = p.get('state');
      const type = p.get('response_type');
      const base = {
        clientId: client.id,
        responseType: type === 'token' ? 'token' : 'code',
        redirectUri,
        redirectUriGiven: given !== undefined,
        scopes: undefined,
        state: state !== undefined && vschar.test(state) ? state : undefined,
        codeChallenge: undefined,
      } as const;
      if (state !== undefined && base.state === undefined)
        return failWith(
          base,
          ctx,
          'invalid_request',
          'The state must be at most 512 printable ASCII characters.',
        );
      if (type === undefined)
        return failWith(base, ctx, 'invalid_request', 'The parameter response_type is required.');
      if (type !== 'code' && type !== 'token')
        return failWith(base, ctx, 'unsupported_response_type', 'The response_type must be code.');
      const grant = type === 'code' ? 'authorization_code' : 'implicit';
      if (!client.grants.has(grant))
        return failWith(
          base,
          ctx,
          'unauthorized_client',
          `This client may not use response_type ${type}.`,
        );
      let scopes: Set<string> | undefined;
      try {
        scopes = parseScope(p.get('scope'), o.scopes);
        narrowScope(scopes, client.scopes);
      } catch (e) {
        return failWith(base, ctx, 'invalid_scope', (e as Error).message);
      }
      const challenge = p.get('code_challenge');
      if (type === 'code') {
        if (challenge === undefined || !challengeSyntax.test(challenge)) {
          return failWith(
            base,
            ctx,
            'invalid_request',
            'PKCE is required: send a code_challenge (43 base64url characters) with code_challenge_method S256.',
          );
        }
        if (p.get('code_challenge_method') !== 'S256') {
          return failWith(base, ctx, 'invalid_request', 'The code_challenge_method must be S256.');
        }
      }
      return {
        request: { ...base, scopes, codeChallenge: type === 'code' ? challenge : undefined },
      };
    },

    async approve(request, user, ctx, status = 302) {
      const client = o.clients.get(request.clientId)!;
      let scope: string;
      try {
        scope = narrowScope(request.scopes, intersect(client.scopes, user.scopes)).join(' ');
      } catch (e) {
        return answer(
          request,
          ctx,
          { error: 'invalid_scope', error_description: (e as Error).message },
          status,
        );
      }
      if (request.responseType === 'token') {
        const { token, expiresIn } = await implicitToken(client, user.subject, scope, ctx);
        return answer(
          request,
          ctx,
          { access_token: token, token_type: 'Bearer', expires_in: String(expiresIn), scope },
          status,
        );
      }
      const code = await codes.issue(
        {
          c: client.id,
          r: request.redirectUri,
          rg: request.redirectUriGiven,
          ch: request.codeChallenge!,
          s: user.subject,
          sc: scope,
        },
        ctx,
      );
      return answer(request, ctx, { code }, status);
    },

    deny(request, ctx, status = 302) {
      return answer(
        request,
        ctx,
        { error: 'access_denied', error_description: 'The user did not allow the request.' },
        status,
      );
    },
  };
}
