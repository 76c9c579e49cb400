/** The response headers the library's features send, each described by what its value holds. */
import type { JsonSchema } from './json-schema.ts';

/** One response header (OpenAPI 3.1 §4.8.21). */
const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({
  description,
  schema,
});

const integer = (minimum: number) => ({ type: 'integer', minimum });

/** `X-RateLimit-*` (spec 8.3) and the IETF fields the rate limiter sends when asked. */
export const rateLimitHeaders = {
  'X-RateLimit-Limit': header('Requests allowed per window to this caller (spec 8.3).', integer(0)),
  'X-RateLimit-Remaining': header(
    'Requests left to this caller in the current window.',
    integer(0),
  ),
  'X-RateLimit-Reset': header(
    'When the current window ends: a time in whole seconds since the Unix epoch, UTC (spec 8.3).',
    integer(0),
  ),
  RateLimit: header(
    'The IETF RateLimit field (draft-ietf-httpapi-ratelimit-headers): the policy, what remains (r) and the seconds until the window resets (t), when the service sends it.',
  ),
  'RateLimit-Policy': header(
    'The IETF RateLimit-Policy field: each policy with its quota (q) and window in seconds (w), when the service sends it.',
  ),
};

/** A 429's headers: when to try again (RFC 9110 §10.2.3), and the limit's state. */
export const tooManyHeaders = {
  'Retry-After': header('Seconds to wait before trying again (RFC 9110 §10.2.3).', integer(0)),
  ...rateLimitHeaders,
};

/** What `caching()` adds to a GET's 200 (RFC 9110 §8.8, RFC 9111 §5.2). */
export const cachingHeaders = {
  ETag: header(
    'The version of the representation: an entity tag, a quoted string, W/ when weak (RFC 9110 §8.8.3).',
  ),
  'Last-Modified': header(
    'When the resource last changed, as an HTTP-date such as Tue, 15 Nov 1994 08:12:31 GMT (RFC 9110 §8.8.2).',
  ),
  'Cache-Control': header(
    'Cache directives such as private, no-cache or max-age=300 (RFC 9111 §5.2).',
  ),
};

/** A 304's headers: the validators of the representation the client holds. */
export const notModifiedHeaders = {
  ETag: cachingHeaders.ETag,
  'Cache-Control': cachingHeaders['Cache-Control'],
};

/** What negotiation adds to a negotiated answer. */
export const varyHeader = header(
  'The request fields the representation depends on, such as Accept (RFC 9110 §12.5.5).',
);

/** What `cors()` adds to a cross-origin answer. */
export const corsHeader = header(
  'The origin allowed to read the response, on a cross-origin request (Fetch standard, CORS protocol).',
);

/** What `versioning()` adds to a deprecated operation's answers. */
export const deprecationHeaders = {
  Deprecation: header(
    'When the operation was deprecated: @ and seconds since the Unix epoch (RFC 9745 §2).',
  ),
  Sunset: header('When it stops answering, as an HTTP-date (RFC 8594 §3).'),
  Link: header(
    'Links to the successor (rel="successor-version") and the deprecation policy (rel="deprecation"), RFC 8288 and RFC 9745 §3.',
  ),
};

/** A 201's or 202's `Location`. */
export const locationHeader = (what: string) =>
  header(what, { type: 'string', format: 'uri-reference' });

/** The headers of an answer to OPTIONS (RFC 9110 §9.3.7) and of a CORS preflight. */
export const optionsHeaders = (cors: boolean) => ({
  Allow: header(
    'The methods the path allows, such as GET, HEAD, POST, OPTIONS (RFC 9110 §10.2.1).',
  ),
  ...(cors
    ? {
        'Access-Control-Allow-Origin': corsHeader,
        'Access-Control-Allow-Methods': header(
          'To a preflight: the methods the origin may use (Fetch standard, CORS protocol).',
        ),
        'Access-Control-Allow-Headers': header(
          'To a preflight: the request headers the origin may send.',
        ),
        'Access-Control-Max-Age': header(
          'To a preflight: seconds the answer may be cached.',
          integer(0),
        ),
      }
    : {}),
});

/** A 401's challenge. */
export const challengeHeaders = {
  'WWW-Authenticate': header(
    'The authentication scheme to use, such as Bearer with an error (RFC 9110 §11.6.1, RFC 6750 §3).',
  ),
};
