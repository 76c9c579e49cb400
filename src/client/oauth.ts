/**
 * Access tokens from the service's token endpoint (RFC 6749): got with the password or client
 * credentials grant, or from a user's sign-in in a browser (authorization code with PKCE),
 * renewed with the refresh token before they expire and after `invalid_token`, one request at a
 * time however many calls need a token. Credentials go to the token endpoint only, never after a
 * redirect.
 */
import { ApiResponseError } from './errors.ts';
import { discover, type Endpoints } from './oauth-metadata.ts';
import { readJson } from './read-body.ts';
import { ClientRefusedError } from './refused.ts';
import { beginSignIn, type SignInOptions, type SignInStorage, takeAnswer } from './sign-in.ts';

/**
 * How the client gets its access tokens from an OAuth 2.0 token endpoint.
 *
 * @category Client
 */
export interface OAuthClientOptions {
  /**
   * The token endpoint, absolute or relative to `baseUrl`.
   * @default the `token_endpoint` of the issuer's RFC 8414 metadata
   */
  tokenUrl?: string;
  /** The client's id. */
  clientId: string;
  /** The client's secret, sent with HTTP Basic (RFC 6749 §2.3.1); without one the client is public. @default none */
  clientSecret?: string;
  /** With `password`: the resource owner password grant (RFC 6749 §4.3). @default the client credentials grant */
  username?: string;
  /** The user's password, with `username`. */
  password?: string;
  /** The scopes to ask for, space-separated. @default the service's default */
  scope?: string;
  /**
   * The authorization server's issuer identifier: its metadata is read from it (RFC 8414 §3.1)
   * and must name exactly it (§3.3). @default the origin of `baseUrl`
   */
  issuer?: string;
  /**
   * Origins besides the issuer's where the metadata's endpoints may be; they receive the client
   * secret and the user's password. An endpoint anywhere else is refused. @default []
   */
  allowedOrigins?: readonly string[];
  /**
   * Where the authorization server sends the user back after a sign-in in the browser, exactly
   * as registered: with it, users sign in with `beginSignIn()` and `completeSignIn()`
   * (authorization code with PKCE) instead of a password grant. @default none
   */
  redirectUri?: string;
  /**
   * The authorization endpoint, absolute or relative to `baseUrl`.
   * @default the `authorization_endpoint` of the issuer's RFC 8414 metadata
   */
  authorizationUrl?: string;
  /**
   * Where a sign-in under way keeps its PKCE verifier while the user is away (the tokens stay in
   * memory). @default `sessionStorage` in a browser, else memory
   */
  storage?: SignInStorage;
}

/** What the token endpoint answered (RFC 6749 §5.1). */
interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/** What a token source is made with, resolved by the client's options. */
interface TokenConfig {
  readonly options: OAuthClientOptions;
  /** The client's base URL. */
  readonly base: string;
  readonly issuer: string;
  readonly allowed: ReadonlySet<string>;
  readonly storage: SignInStorage;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly maxBodySize: number;
}

/** The access token of one client, and how to get the next. */
export class TokenSource {
  #access: string | undefined;
  #refresh: string | undefined;
  #expiresAt = Number.POSITIVE_INFINITY;
  #lifetime = Number.POSITIVE_INFINITY;
  #pending: Promise<string> | undefined;
  #endpoints: Promise<Endpoints> | undefined;

  constructor(private readonly c: TokenConfig) {}

  /** A token to send now: the current one, or a new one when it is about to expire. */
  current(): Promise<string> {
    if (this.#pending) return this.#pending;
    // Renewed a little before it expires (a quarter of its life, at most 30 s), so a call in
    // flight does not carry a token that lapses on the way.
    const margin = Math.min(30_000, this.#lifetime / 4);
    if (this.#access !== undefined && this.c.now() < this.#expiresAt - margin) {
      return Promise.resolve(this.#access);
    }
    return this.#renew(() => this.#obtain());
  }

  /**
   * A new token after `stale` was refused; a call that brings a token already replaced gets the
   * replacement, so many refused calls cost one refresh.
   */
  renew(stale: string): Promise<string> {
    if (this.#pending) return this.#pending;
    if (this.#access !== undefined && this.#access !== stale) return Promise.resolve(this.#access);
    return this.#renew(() => this.#obtain());
  }

  /** The URL to send the user to, to sign in (authorization code with PKCE). */
  async beginSignIn(options: SignInOptions = {}): Promise<string> {
    const { clientId, redirectUri, scope } = this.c.options;
    const endpoints = await this.#endpointsOf();
    if (endpoints.authorization === undefined) {
      throw new TypeError(
        'beginSignIn(): the metadata names no authorization_endpoint; give oauth.authorizationUrl.',
      );
    }
    const params = { clientId, redirectUri: redirectUri!, scope: options.scope ?? scope };
    return beginSignIn(this.c.storage, endpoints.authorization, params, endpoints.issuer);
  }

  /** Trades the code of the answer at `callback` for tokens (RFC 6749 §4.1.3, RFC 7636 §4.5). */
  async completeSignIn(callback: string | URL): Promise<void> {
    const { code, pending } = takeAnswer(this.c.storage, callback);
    await this.#renew(() =>
      this.#grant({
        grant_type: 'authorization_code',
        code,
        redirect_uri: pending.redirectUri,
        code_verifier: pending.verifier,
      }),
    );
  }

  #renew(get: () => Promise<string>): Promise<string> {
    const pending = get().finally(() => {
      this.#pending = undefined;
    });
    this.#pending = pending;
    return pending;
  }

  async #obtain(): Promise<string> {
    const refresh = this.#refresh;
    if (refresh !== undefined) {
      this.#refresh = undefined;
      try {
        return await this.#grant({ grant_type: 'refresh_token', refresh_token: refresh });
      } catch (error) {
        // A refresh token that was revoked or expired: the first grant again (RFC 6749 §5.2).
        if (!(error instanceof ApiResponseError) || error.status !== 400) throw error;
      }
    }
    const { username, password, scope, redirectUri } = this.c.options;
    if (redirectUri !== undefined) {
      this.#access = undefined;
      throw new ClientRefusedError(
        'sign-in',
        this.c.base,
        'No user is signed in, or the sign-in lapsed: send the user to the URL of beginSignIn(), then call completeSignIn() on their return.',
      );
    }
    const grant: Record<string, string> =
      username !== undefined
        ? { grant_type: 'password', username, password: password ?? '' }
        : { grant_type: 'client_credentials' };
    if (scope !== undefined) grant.scope = scope;
    return this.#grant(grant);
  }

  async #grant(fields: Record<string, string>): Promise<string> {
    const url = (await this.#endpointsOf()).token;
    const { clientId, clientSecret } = this.c.options;
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const form = new URLSearchParams(fields);
    if (clientSecret !== undefined) {
      // RFC 6749 §2.3.1: both parts form-encoded, then Basic.
      const pair = `${formEncode(clientId)}:${formEncode(clientSecret)}`;
      headers.authorization = `Basic ${btoa(pair)}`;
    } else {
      form.set('client_id', clientId);
    }
    const sentAt = this.c.now();
    // A redirect would carry the secret and the password along: never followed.
    const res = await this.c.fetch(url, {
      method: 'POST',
      headers,
      body: form.toString(),
      redirect: 'manual',
    });
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
      await res.body?.cancel().catch(() => undefined);
      throw new ClientRefusedError(
        'redirects',
        url,
        `POST ${url}: the token endpoint redirected; the client sends no credentials after a redirect.`,
      );
    }
    const body = (await readJson(res, this.c.maxBodySize, 'POST', url)) as TokenAnswer | undefined;
    if (!res.ok || typeof body?.access_token !== 'string') {
      throw new ApiResponseError('POST', url, res.ok ? 502 : res.status, res.headers, body);
    }
    this.#access = body.access_token;
    if (typeof body.refresh_token === 'string') this.#refresh = body.refresh_token;
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : undefined;
    this.#lifetime = seconds === undefined ? Number.POSITIVE_INFINITY : seconds * 1000;
    this.#expiresAt = sentAt + this.#lifetime;
    return body.access_token;
  }

  /** The endpoints: the options', else the issuer's metadata (RFC 8414 §3), asked once. */
  #endpointsOf(): Promise<Endpoints> {
    if (this.#endpoints) return this.#endpoints;
    const { tokenUrl, authorizationUrl, issuer, redirectUri } = this.c.options;
    const given = (url: string | undefined) =>
      url === undefined ? undefined : new URL(url, this.c.base).href;
    const asked = tokenUrl !== undefined && (redirectUri === undefined || authorizationUrl);
    this.#endpoints = asked
      ? Promise.resolve({
          issuer,
          token: given(tokenUrl)!,
          authorization: given(authorizationUrl),
        })
      : discover({
          issuer: this.c.issuer,
          issuerGiven: issuer !== undefined,
          allowed: this.c.allowed,
          fetch: this.c.fetch,
          maxBodySize: this.c.maxBodySize,
        }).then((found) => ({
          issuer: found.issuer,
          token: given(tokenUrl) ?? found.token,
          authorization: given(authorizationUrl) ?? found.authorization,
        }));
    // A failed discovery is asked again by the next call.
    this.#endpoints.catch(() => {
      this.#endpoints = undefined;
    });
    return this.#endpoints;
  }
}

/** `application/x-www-form-urlencoded` encoding of one value (spaces as `+`). */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
