/** Helpers for a service's own authorization endpoint (RFC 6749 §4.1.1, §4.2.1, RFC 7636 §4.3). */
import type { Reply } from '../http/reply.ts';
import type { RequestContext } from '../kernel/context.ts';
import {
  type AuthorizationCheck,
  checkAuthorization,
  redirectWith,
} from './authorization-check.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import type { FailureCounter } from './brute-force.ts';
import type { AuthorizationCodes } from './codes.ts';
import type { CompiledClient } from './compile-clients.ts';
import type { OAuthServerOptions, OAuthUser } from './options.ts';
import type { ResolvedOAuth } from './resolve.ts';
import { intersect, narrowScope } from './scopes.ts';
import { signInWith } from './sign-in.ts';

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
  return {
    signIn: signInWith(o, counter),

    check: (params, ctx) => checkAuthorization(o, params, ctx),

    async approve(request, user, ctx, status = 302) {
      const client = o.clients.get(request.clientId)!;
      let scope: string;
      try {
        scope = narrowScope(request.scopes, intersect(client.scopes, user.scopes)).join(' ');
      } catch (e) {
        return redirectWith(
          o,
          request,
          ctx,
          { error: 'invalid_scope', error_description: (e as Error).message },
          status,
        );
      }
      if (request.responseType === 'token') {
        const { token, expiresIn } = await implicitToken(client, user.subject, scope, ctx);
        return redirectWith(
          o,
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
      return redirectWith(o, request, ctx, { code }, status);
    },

    deny(request, ctx, status = 302) {
      return redirectWith(
        o,
        request,
        ctx,
        { error: 'access_denied', error_description: 'The user did not allow the request.' },
        status,
      );
    },
  };
}
