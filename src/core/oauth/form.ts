/** The parameters of an OAuth request body, with RFC 6749 §3.1's rules for empty and repeated ones. */
import { ErrorCode } from '../errors/catalogue.ts';
import { oauthError } from './errors.ts';

/** Parameter values by name: every value a single string, empty ones dropped. */
export type OAuthParams = ReadonlyMap<string, string>;

/**
 * The parameters of a parsed form body. RFC 6749 §3.1: a parameter sent without a value is as if
 * omitted; §3.2: one sent more than once is `invalid_request`. The message names a repeated
 * parameter only when it is one of `known`, so the client's text is never echoed.
 */
export function formParams(body: unknown, known: ReadonlySet<string>): OAuthParams {
  const params = new Map<string, string>();
  if (body === undefined) return params;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) {
      const named = known.has(name) ? `The parameter ${name} was` : 'A parameter was';
      throw oauthError(
        'invalid_request',
        `${named} sent more than once; send each parameter once.`,
        {
          code: ErrorCode.OAuthRepeatedParameter,
        },
      );
    }
    if (typeof value === 'string' && value !== '') params.set(name, value);
  }
  return params;
}

/** A required parameter, or `invalid_request` naming it. */
export function required(params: OAuthParams, name: string): string {
  const value = params.get(name);
  if (value === undefined)
    throw oauthError('invalid_request', `The parameter ${name} is required.`);
  return value;
}
