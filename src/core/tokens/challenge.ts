/** RFC 6750 §3 answers: the `WWW-Authenticate: Bearer` challenge and the errors that carry it. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';

/** Why a token is refused; each has its own fixed message, so nothing the client sent is echoed. */
type TokenProblem = 'malformed' | 'invalid' | 'expired' | 'revoked' | 'tooLong';

/**
 * A quoted-string (RFC 9110 §5.6.4) of `value`: `"` and `\` escaped, anything outside printable
 * ASCII dropped, so a configured realm can never break the header.
 */
function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '\\$&')}"`;
}

// RFC 6750 §3: error_description is %x20-21 / %x23-5B / %x5D-7E: no quote, no backslash.
function description(text: string): string {
  return `"${text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;
}

// RFC 6750 §3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Tells whether `scope` is one RFC 6749 §3.3 scope token. */
export function isScopeToken(scope: string): boolean {
  return scopeToken.test(scope);
}

const messages: Record<TokenProblem, string> = {
  malformed: 'The access token is malformed.',
  invalid: 'The access token is not valid.',
  expired: 'The access token has expired; get a new one, with the refresh token if one was issued.',
  revoked: 'The access token was revoked.',
  tooLong: 'The access token is longer than this service accepts.',
};

/**
 * The answers of one realm, their headers formatted once at start-up (the request path only
 * picks one).
 */
export class Challenges {
  private readonly missingHeaders: Record<string, string>;
  private readonly problemHeaders: Record<TokenProblem, Record<string, string>>;
  private readonly requestHeaders: Record<string, string>;
  private readonly scopeHeaders = new Map<string, Record<string, string>>();
  private readonly userHeaders: Record<string, string>;
  readonly realm: string;

  constructor(realm: string) {
    this.realm = `Bearer realm=${quote(realm)}`;
    this.missingHeaders = { 'www-authenticate': this.realm };
    const problemHeaders = {} as Record<TokenProblem, Record<string, string>>;
    for (const problem of Object.keys(messages) as TokenProblem[]) {
      problemHeaders[problem] = {
        'www-authenticate': `${this.realm}, error="invalid_token", error_description=${description(messages[problem])}`,
      };
    }
    this.problemHeaders = problemHeaders;
    this.requestHeaders = { 'www-authenticate': `${this.realm}, error="invalid_request"` };
    this.userHeaders = {
      'www-authenticate': `${this.realm}, error="insufficient_scope", error_description="This resource needs a token issued to a user"`,
    };
  }

  /** 401 without an error attribute: the request carried no token (RFC 6750 §3.1). */
  missing(): ApiError {
    return new ApiError(
      401,
      ErrorCode.Unauthorized,
      'This resource needs an access token; send it as "Authorization: Bearer <token>".',
      { headers: this.missingHeaders },
    );
  }

  /** 401 `invalid_token` (RFC 6750 §3.1, spec 5.6). */
  invalid(problem: TokenProblem): ApiError {
    return new ApiError(401, ErrorCode.InvalidToken, messages[problem], {
      headers: this.problemHeaders[problem],
    });
  }

  /**
   * 503 {@link ErrorCode.KeySetUnavailable}: the identity provider's keys could not be fetched,
   * so the token was neither accepted nor refused; the service is at fault, not the caller.
   */
  keySetUnavailable(cause: unknown): ApiError {
    return new ApiError(
      503,
      ErrorCode.KeySetUnavailable,
      'The keys to check the access token could not be fetched from the identity provider; try again shortly.',
      { cause, headers: { 'retry-after': '5' } },
    );
  }

  /** 400 `invalid_request`: a malformed request, or a token sent more than one way (RFC 6750 §3.1). */
  badRequest(message: string): ApiError {
    return new ApiError(400, ErrorCode.BadRequest, message, { headers: this.requestHeaders });
  }

  /** The headers of a 403 `insufficient_scope` naming `scope`, formatted once per scope list. */
  scopeHeadersFor(scope: string): Record<string, string> {
    let headers = this.scopeHeaders.get(scope);
    if (headers === undefined) {
      headers = {
        'www-authenticate': `${this.realm}, error="insufficient_scope", scope="${scope}"`,
      };
      this.scopeHeaders.set(scope, headers);
    }
    return headers;
  }

  /** 403 `insufficient_scope` with the scopes the route needs (RFC 6750 §3.1). */
  insufficientScope(scope: string, headers: Record<string, string>): ApiError {
    return new ApiError(
      403,
      ErrorCode.InsufficientScope,
      `The access token lacks a scope this request needs; it needs "${scope}".`,
      { headers },
    );
  }

  /** 403: the route needs a user, and the token was issued to a client alone. */
  userRequired(): ApiError {
    return new ApiError(
      403,
      ErrorCode.UserRequired,
      'This resource needs a token issued to a user; a client-credentials token has none.',
      { headers: this.userHeaders },
    );
  }
}
