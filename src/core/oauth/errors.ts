/** The RFC 6749 §5.2 error answers: `error` and `error_description` beside the spec's `errors` list. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';

/**
 * The error words of RFC 6749 §5.2 and RFC 7009 §2.2.1 that the token, revocation and
 * introspection endpoints answer with.
 *
 * @category OAuth server
 */
export type OAuthErrorWord =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type'
  | 'unsupported_response_type'
  | 'access_denied';

const codes: Readonly<Record<OAuthErrorWord, number>> = {
  invalid_request: ErrorCode.OAuthInvalidRequest,
  invalid_client: ErrorCode.OAuthInvalidClient,
  invalid_grant: ErrorCode.OAuthInvalidGrant,
  unauthorized_client: ErrorCode.OAuthUnauthorizedClient,
  unsupported_grant_type: ErrorCode.OAuthUnsupportedGrantType,
  invalid_scope: ErrorCode.OAuthInvalidScope,
  unsupported_token_type: ErrorCode.OAuthUnsupportedTokenType,
  unsupported_response_type: ErrorCode.OAuthUnsupportedResponseType,
  access_denied: ErrorCode.Forbidden,
};

/**
 * An OAuth error as an {@link ApiError}: status 400 (401 for `invalid_client`), the spec's
 * `errors` list and RFC 6749's `error` and `error_description` members. The description is
 * written by the library and never holds the client's own text (RFC 6749 §5.2 limits it to
 * printable ASCII without `"` and `\`).
 *
 * @example
 * ```ts
 * import { oauthError } from 'api-conventions/oauth';
 * throw oauthError('invalid_scope', 'The scope books:admin is not known.');
 * ```
 *
 * @category OAuth server
 */
export function oauthError(
  word: OAuthErrorWord,
  description: string,
  options: { code?: number; headers?: Record<string, string> } = {},
): ApiError {
  const status = word === 'invalid_client' ? 401 : word === 'access_denied' ? 403 : 400;
  const safe = description.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');
  return new ApiError(status, options.code ?? codes[word], safe, {
    ...(options.headers ? { headers: options.headers } : {}),
    extra: { error: word, error_description: safe },
  });
}

/** The description RFC 6749 §5.2 words are given when a core error (415, 413…) reaches an OAuth route. */
export function oauthWordFor(status: number): OAuthErrorWord {
  return status === 401 ? 'invalid_client' : 'invalid_request';
}
