/** Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3). */
import { fromBase64 } from '../internal/base64url.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { LoginAttempt } from './brute-force.ts';
import type { CompiledClient } from './compile-clients.ts';
import { oauthError } from './errors.ts';
import type { OAuthParams } from './form.ts';
import type { ResolvedOAuth } from './resolve.ts';
import { sha256, timingSafeEqual } from './secrets.ts';

/** How the client authenticated. */
type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** The client of a request and how it proved who it is. */
interface AuthenticatedClient {
  readonly client: CompiledClient;
  readonly method: ClientAuthMethod;
}

// RFC 7617 §2: the challenge names the realm; charset says the credentials are UTF-8.
const challenge = { 'www-authenticate': 'Basic realm="oauth2", charset="UTF-8"' };
const failed = 'Client authentication failed: unknown client or wrong secret.';
const basic = /^basic[ \t]+([A-Za-z0-9+/]+=*)[ \t]*$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 401 `invalid_client` with `WWW-Authenticate: Basic` (RFC 6749 §5.2, RFC 9110 §15.5.2). */
function invalidClient(description = failed) {
  return oauthError('invalid_client', description, { headers: challenge });
}

/** RFC 6749 Appendix B: the Basic id and secret are form-urlencoded before base64. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/** The id and secret of a Basic `Authorization` header; anything malformed is `invalid_client`. */
// Cost: linear in the value (an anchored pattern of disjoint classes, then base64 and UTF-8).
function parseBasic(header: string): { id: string; secret: string } {
  const m = basic.exec(header);
  if (!m)
    throw invalidClient('The Authorization header must be Basic with the client id and secret.');
  try {
    // Canonical base64 only (RFC 4648 §3.5): padding as written, no stray bits.
    const bytes = fromBase64(m[1]!);
    if (bytes === undefined) throw new Error('not base64');
    const text = utf8.decode(bytes);
    const colon = text.indexOf(':');
    if (colon < 0) throw new Error('no colon');
    return { id: formDecode(text.slice(0, colon)), secret: formDecode(text.slice(colon + 1)) };
  } catch {
    throw invalidClient('The Basic credentials are not base64 of form-encoded "id:secret".');
  }
}

/**
 * Authenticates the client of a request: HTTP Basic (RFC 6749 §2.3.1), `client_secret_post`
 * when enabled, or a public client's `client_id` alone when `allowPublic`. Two methods at once
 * are `invalid_request`; an unknown client and a wrong secret get the same `invalid_client`
 * after the same work (a digest compared either way). The `attempt` is counted before the secret
 * is compared (past a limit, 429 without comparing) and marked failed when it was wrong.
 */
export async function authenticateClient(
  ctx: RequestContext,
  params: OAuthParams,
  options: ResolvedOAuth,
  attempt: LoginAttempt | undefined,
  allowPublic: boolean,
): Promise<AuthenticatedClient> {
  const header = ctx.headers.get('authorization');
  const bodySecret = params.get('client_secret');
  const bodyId = params.get('client_id');
  let id: string;
  let secret: string | undefined;
  let method: ClientAuthMethod;
  if (header) {
    if (bodySecret !== undefined) {
      throw oauthError(
        'invalid_request',
        'Send the client credentials one way only: the Authorization header or the body, not both.',
      );
    }
    ({ id, secret } = parseBasic(header));
    if (bodyId !== undefined && bodyId !== id) {
      throw oauthError(
        'invalid_request',
        'The client_id in the body is not the client of the Authorization header.',
      );
    }
    method = 'client_secret_basic';
  } else if (bodySecret !== undefined) {
    if (!options.clientSecretPost) {
      throw invalidClient('Send the client credentials in an Authorization: Basic header.');
    }
    if (bodyId === undefined)
      throw oauthError(
        'invalid_request',
        'The parameter client_id is required with client_secret.',
      );
    id = bodyId;
    secret = bodySecret;
    method = 'client_secret_post';
  } else if (bodyId !== undefined && allowPublic) {
    id = bodyId;
    method = 'none';
  } else {
    throw invalidClient('Client authentication is required: send an Authorization: Basic header.');
  }

  const client = options.clients.get(id);
  const expected = client?.secretDigest;
  // A public client has no secret to guess: nothing to count.
  if (method === 'none' && client !== undefined && expected === undefined)
    return { client, method };
  await attempt?.client(client);
  if (method === 'none') {
    // A confidential client must prove itself; an unknown one is refused.
    attempt?.fail();
    throw invalidClient();
  }
  const given = await sha256(secret!);
  const match = timingSafeEqual(given, await (expected ?? options.decoy));
  if (client === undefined || expected === undefined || !match) {
    attempt?.fail();
    throw invalidClient();
  }
  return { client, method };
}
