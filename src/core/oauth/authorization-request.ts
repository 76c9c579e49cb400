/** The checked authorization request, shared by the authorization endpoint and its sign-in form. */

/**
 * A checked authorization request: the client, where to send the answer and what it asks for.
 *
 * @category OAuth server
 */
export interface AuthorizationRequest {
  /** The client asking. */
  readonly clientId: string;
  /** `code` (authorization code) or `token` (implicit). */
  readonly responseType: 'code' | 'token';
  /** The registered redirect URI the answer goes to. */
  readonly redirectUri: string;
  /** Whether the request named it (then the token request must name it too). */
  readonly redirectUriGiven: boolean;
  /** The scopes asked for; `undefined` when none were named (then all the client and user may have). */
  readonly scopes: ReadonlySet<string> | undefined;
  /** The client's `state`, echoed back. */
  readonly state: string | undefined;
  /** The PKCE S256 `code_challenge` (code flow only). */
  readonly codeChallenge: string | undefined;
}
