/**
 * Access tokens from the service's token endpoint (RFC 6749): got with the password or client
 * credentials grant, renewed with the refresh token before they expire and after
 * `invalid_token`, one request at a time however many calls need a token.
 */
import { ApiResponseError } from './errors.ts';

/**
 * How the client gets its access tokens from an OAuth 2.0 token endpoint.
 *
 * @category Client
 */
export interface OAuthClientOptions {
  /**
   * The token endpoint, absolute or relative to `baseUrl`.
   * @default the `token_endpoint` of the service's RFC 8414 metadata (`/.well-known/oauth-authorization-server`)
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
}

/** What the token endpoint answered (RFC 6749 §5.1). */
interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/** The access token of one client, and how to get the next. */
export class TokenSource {
  #access: string | undefined;
  #refresh: string | undefined;
  #expiresAt = Number.POSITIVE_INFINITY;
  #lifetime = Number.POSITIVE_INFINITY;
  #pending: Promise<string> | undefined;
  #tokenUrl: Promise<string> | undefined;

  constructor(
    private readonly options: OAuthClientOptions,
    private readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch,
    private readonly now: () => number,
  ) {}

  /** A token to send now: the current one, or a new one when it is about to expire. */
  current(): Promise<string> {
    if (this.#pending) return this.#pending;
    // Renewed a little before it expires (a quarter of its life, at most 30 s), so a call in
    // flight does not carry a token that lapses on the way.
    const margin = Math.min(30_000, this.#lifetime / 4);
    if (this.#access !== undefined && this.now() < this.#expiresAt - margin) {
      return Promise.resolve(this.#access);
    }
    return this.#renew();
  }

  /**
   * A new token after `stale` was refused; a call that brings a token already replaced gets the
   * replacement, so many refused calls cost one refresh.
   */
  renew(stale: string): Promise<string> {
    if (this.#pending) return this.#pending;
    if (this.#access !== undefined && this.#access !== stale) return Promise.resolve(this.#access);
    return this.#renew();
  }

  #renew(): Promise<string> {
    const pending = this.#obtain().finally(() => {
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
    const { username, password, scope } = this.options;
    const grant: Record<string, string> =
      username !== undefined
        ? { grant_type: 'password', username, password: password ?? '' }
        : { grant_type: 'client_credentials' };
    if (scope !== undefined) grant.scope = scope;
    return this.#grant(grant);
  }

  async #grant(fields: Record<string, string>): Promise<string> {
    const url = await this.#endpoint();
    const { clientId, clientSecret } = this.options;
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
    const sentAt = this.now();
    const res = await this.fetchImpl(url, { method: 'POST', headers, body: form.toString() });
    const body = (await res.json().catch(() => undefined)) as TokenAnswer | undefined;
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

  /** The token endpoint: the option's, else the metadata's (RFC 8414 §3), asked once. */
  #endpoint(): Promise<string> {
    if (this.#tokenUrl) return this.#tokenUrl;
    const { tokenUrl } = this.options;
    this.#tokenUrl =
      tokenUrl !== undefined
        ? Promise.resolve(new URL(tokenUrl, this.baseUrl).href)
        : this.#discover();
    // A failed discovery is asked again by the next call.
    this.#tokenUrl.catch(() => {
      this.#tokenUrl = undefined;
    });
    return this.#tokenUrl;
  }

  async #discover(): Promise<string> {
    const url = new URL('/.well-known/oauth-authorization-server', this.baseUrl).href;
    const res = await this.fetchImpl(url, { headers: { accept: 'application/json' } });
    const body = (await res.json().catch(() => undefined)) as
      | { token_endpoint?: unknown }
      | undefined;
    if (!res.ok || typeof body?.token_endpoint !== 'string') {
      throw new ApiResponseError('GET', url, res.ok ? 502 : res.status, res.headers, body);
    }
    return body.token_endpoint;
  }
}

/** `application/x-www-form-urlencoded` encoding of one value (spaces as `+`). */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
