/** A sign-in form's password check, counted with the token endpoint's failed logins. */
import type { RequestContext } from '../kernel/context.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import { type FailureCounter, withAttempt } from './brute-force.ts';
import type { OAuthServerOptions, OAuthUser } from './options.ts';
import type { ResolvedOAuth } from './resolve.ts';

/** Checks a user's password for an authorization request; see `AuthorizationHelpers.signIn`. */
export function signInWith(
  o: ResolvedOAuth,
  counter: FailureCounter | undefined,
): (
  request: AuthorizationRequest,
  username: string,
  password: string,
  ctx: RequestContext,
  verify?: OAuthServerOptions['verifyUser'],
) => Promise<OAuthUser | undefined> {
  return (request, username, password, ctx, verify = o.verifyUser) => {
    if (typeof verify !== 'function') {
      throw new TypeError(
        'oauthServer: authorization.signIn() checks passwords with `verifyUser`; give ' +
          'oauthServer a verifyUser, or pass your check as signIn’s last argument.',
      );
    }
    // The same counters, in the same order, as the password grant: the client from this
    // network and from every network, then the username, each before the password is checked.
    return withAttempt(counter, ctx, async (attempt) => {
      await attempt?.client(o.clients.get(request.clientId));
      await attempt?.user(username);
      const user = await verify(username, password, ctx);
      if (user === undefined) attempt?.fail();
      return user;
    });
  };
}
