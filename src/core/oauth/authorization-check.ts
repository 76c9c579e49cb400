/** The checks of an authorization request's parameters, and the redirect that answers the client (RFC 6749 §4.1.1, §4.1.2.1, RFC 7636 §4.3). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { ok, type Reply } from '../http/reply.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import type { CompiledClient } from './compile-clients.ts';
import { type OAuthErrorWord, oauthError } from './errors.ts';
import type { ResolvedOAuth } from './resolve.ts';
import { narrowScope, parseScope } from './scopes.ts';
import { knownParams } from './token-endpoint.ts';

/**
 * The outcome of the authorization helpers' `check`: the request to show the user, or the
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

/**
 * The redirect to the request's client with `values`, its `state` and the issuer: in the query,
 * or for the implicit grant in the fragment.
 */
export function redirectWith(
  o: ResolvedOAuth,
  request: AuthorizationRequest,
  ctx: RequestContext,
  values: Record<string, string>,
  status: number,
): Reply {
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
  const r = ok(undefined, { location: url.href, 'cache-control': 'no-store' });
  r.status = status;
  return r;
}

/**
 * The client and the redirect URI a request names. Neither is redirected to when wrong: an
 * unknown client or an unregistered URI throws a 400 (RFC 6749 §4.1.2.1).
 */
function clientAndRedirect(
  o: ResolvedOAuth,
  p: ReadonlyMap<string, string>,
): { client: CompiledClient; redirectUri: string; given: boolean } {
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
  return { client, redirectUri, given: given !== undefined };
}

/**
 * Checks an authorization request's parameters: the request to show the user, or a redirect to
 * the client with `error` (RFC 6749 §4.1.2.1, RFC 7636 §4.3).
 */
export function checkAuthorization(
  o: ResolvedOAuth,
  params: URLSearchParams | Readonly<Record<string, unknown>>,
  ctx: RequestContext,
): AuthorizationCheck {
  const p = single(params);
  const { client, redirectUri, given } = clientAndRedirect(o, p);
  const state = p.get('state');
  const type = p.get('response_type');
  const base = {
    clientId: client.id,
    responseType: type === 'token' ? 'token' : 'code',
    redirectUri,
    redirectUriGiven: given,
    scopes: undefined,
    state: state !== undefined && vschar.test(state) ? state : undefined,
    codeChallenge: undefined,
  } as const;
  const failWith = (word: OAuthErrorWord, description: string): AuthorizationCheck => ({
    redirect: redirectWith(o, base, ctx, { error: word, error_description: description }, 302),
  });
  if (state !== undefined && base.state === undefined)
    return failWith('invalid_request', 'The state must be at most 512 printable ASCII characters.');
  if (type === undefined)
    return failWith('invalid_request', 'The parameter response_type is required.');
  if (type !== 'code' && type !== 'token')
    return failWith('unsupported_response_type', 'The response_type must be code.');
  const grant = type === 'code' ? 'authorization_code' : 'implicit';
  if (!client.grants.has(grant))
    return failWith('unauthorized_client', `This client may not use response_type ${type}.`);
  let scopes: Set<string> | undefined;
  try {
    scopes = parseScope(p.get('scope'), o.scopes);
    narrowScope(scopes, client.scopes);
  } catch (e) {
    return failWith('invalid_scope', (e as Error).message);
  }
  const challenge = p.get('code_challenge');
  if (type === 'code') {
    if (challenge === undefined || !challengeSyntax.test(challenge)) {
      return failWith(
        'invalid_request',
        'PKCE is required: send a code_challenge (43 base64url characters) with code_challenge_method S256.',
      );
    }
    if (p.get('code_challenge_method') !== 'S256') {
      return failWith('invalid_request', 'The code_challenge_method must be S256.');
    }
  }
  return {
    request: { ...base, scopes, codeChallenge: type === 'code' ? challenge : undefined },
  };
}
