/**
 * Signing a user in from a browser: the authorization-code flow with PKCE (RFC 7636, S256) for a
 * public client, which holds no secret (OAuth 2.0 for Browser-Based Apps). The verifier and
 * `state` of a sign-in under way wait in session storage across the redirect; the tokens never
 * leave memory.
 */
import { toBase64Url } from '../core/internal/base64url.ts';
import { ClientRefusedError } from './refused.ts';

/**
 * Where a sign-in under way keeps its verifier while the user is at the authorization server:
 * `sessionStorage` has this shape.
 *
 * @category Client
 */
export interface SignInStorage {
  /** The value of `key`, or `null`. */
  getItem(key: string): string | null;
  /** Stores `value` under `key`. */
  setItem(key: string, value: string): void;
  /** Forgets `key`. */
  removeItem(key: string): void;
}

/**
 * What {@link Client.beginSignIn} asks for.
 *
 * @category Client
 */
export interface SignInOptions {
  /** The scopes to ask for, space-separated. @default the `oauth.scope` option, else the server's default */
  scope?: string;
}

/** A sign-in begun: what the callback needs to finish it. */
interface PendingSignIn {
  /** The PKCE code verifier (RFC 7636 §4.1). */
  readonly verifier: string;
  readonly redirectUri: string;
  /** The issuer asked, for the answer's `iss` (RFC 9207). */
  readonly issuer: string | undefined;
}

const prefix = 'api-conventions:sign-in:';

/** `sessionStorage` where the runtime has one (a browser), else a map in memory. */
export function defaultStorage(): SignInStorage {
  try {
    const session = (globalThis as { sessionStorage?: SignInStorage }).sessionStorage;
    if (session !== undefined) return session;
  } catch {
    // A sandboxed frame may refuse storage: memory serves a sign-in in one page.
  }
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

/** `bytes` random bytes, base64url. */
const random = (bytes: number) => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));

/**
 * Begins a sign-in: a verifier and its S256 challenge (RFC 7636 §4.1, §4.2), a `state` (RFC
 * 6749 §10.12), kept in `storage`; resolves to the authorization request's URL.
 */
export async function beginSignIn(
  storage: SignInStorage,
  endpoint: string,
  params: { clientId: string; redirectUri: string; scope: string | undefined },
  issuer: string | undefined,
): Promise<string> {
  // 32 bytes: the 43-character verifier RFC 7636 §4.1 recommends.
  const verifier = random(32);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  const state = random(16);
  const pending: PendingSignIn = { verifier, redirectUri: params.redirectUri, issuer };
  storage.setItem(prefix + state, JSON.stringify(pending));
  const url = new URL(endpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', params.clientId);
  query.set('redirect_uri', params.redirectUri);
  if (params.scope !== undefined) query.set('scope', params.scope);
  query.set('state', state);
  query.set('code_challenge', toBase64Url(new Uint8Array(digest)));
  query.set('code_challenge_method', 'S256');
  return url.href;
}

/**
 * The code of an authorization answer (RFC 6749 §4.1.2) and the sign-in it ends, taken out of
 * `storage` (a callback is used once). Refuses an answer whose `state` matches no sign-in begun
 * here, one from another issuer (`iss`, RFC 9207 §2.4), and an error answer.
 */
export function takeAnswer(
  storage: SignInStorage,
  callback: string | URL,
): { code: string; pending: PendingSignIn } {
  const url = new URL(callback);
  const query = url.searchParams;
  const state = query.get('state') ?? '';
  const stored = state === '' ? null : storage.getItem(prefix + state);
  if (stored === null) {
    throw new ClientRefusedError(
      'sign-in',
      url.href,
      'The authorization answer names no sign-in this client began (its state is unknown or was used; RFC 6749 §10.12): begin again with beginSignIn().',
    );
  }
  storage.removeItem(prefix + state);
  const pending = JSON.parse(stored) as PendingSignIn;
  const iss = query.get('iss');
  if (pending.issuer !== undefined && iss !== null && iss !== pending.issuer) {
    throw new ClientRefusedError(
      'issuer',
      url.href,
      `The authorization answer comes from the issuer "${iss}", not "${pending.issuer}" that was asked (RFC 9207 §2.4).`,
    );
  }
  const error = query.get('error');
  const code = query.get('code');
  if (error !== null || code === null || code === '') {
    const description = query.get('error_description');
    throw new ClientRefusedError(
      'sign-in',
      url.href,
      `The sign-in was refused: ${error ?? 'no code'}${description ? `: ${description}` : ''}.`,
    );
  }
  return { code, pending };
}
