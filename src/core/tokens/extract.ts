/** RFC 6750 §2: where a request carries its bearer token (header, form body, query). */
import type { Challenges } from './challenge.ts';

/**
 * The token of an `Authorization` header that uses the Bearer scheme (RFC 6750 §2.1; the scheme
 * is case-insensitive, RFC 9110 §11.1), or `undefined` for another scheme (Basic, say). A Bearer
 * header without a token, or two headers joined by a comma, is a 400 `invalid_request`.
 */
export function tokenFromHeader(value: string, challenges: Challenges): string | undefined {
  // Cost: linear in the value (a prefix test, two trims, one search for a comma).
  let at: number;
  if (value.startsWith('Bearer ')) at = 7;
  else if (value.length >= 6 && value.slice(0, 6).toLowerCase() === 'bearer') {
    if (value.length > 6 && value[6] !== ' ') return undefined; // `Bearerx`: another scheme
    at = 6;
  } else return undefined;
  while (value.charCodeAt(at) === 32) at++;
  let end = value.length;
  while (end > at && value.charCodeAt(end - 1) === 32) end--;
  if (end === at) {
    throw challenges.badRequest('The Authorization header names Bearer but carries no token.');
  }
  const token = at === 0 && end === value.length ? value : value.slice(at, end);
  // A repeated Authorization header arrives joined by ", " (RFC 9110 §5.3); a b64token has no comma.
  if (token.includes(',')) {
    throw challenges.badRequest('Send one Authorization header with one bearer token.');
  }
  return token;
}

/**
 * The `access_token` of a parsed form body (RFC 6750 §2.2), `undefined` when it has none; the
 * parameter given twice is a 400 `invalid_request`.
 */
export function tokenFromForm(body: unknown, challenges: Challenges): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>).access_token;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw challenges.badRequest('Send the access_token form parameter once.');
  }
  if (value === '') throw challenges.badRequest('The access_token form parameter is empty.');
  return value;
}

/**
 * The `access_token` query parameter (RFC 6750 §2.3), `undefined` when absent; twice is a 400.
 */
export function tokenFromQuery(query: URLSearchParams, challenges: Challenges): string | undefined {
  const values = query.getAll('access_token');
  if (values.length === 0) return undefined;
  if (values.length > 1) throw challenges.badRequest('Send the access_token query parameter once.');
  if (values[0] === '') throw challenges.badRequest('The access_token query parameter is empty.');
  return values[0];
}
