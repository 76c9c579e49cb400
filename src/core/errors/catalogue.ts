/** The one catalogue of error codes: each code is the HTTP status × 100 + n (spec 7.1.5). */

/**
 * Every error code the library emits, by name. A code is `status * 100 + n`, so the status can
 * always be read back from it (`Math.floor(code / 100)`). Codes are stable: a code's meaning
 * never changes once released. [Errors](../../../docs/errors.md) lists them with their messages.
 *
 * @category Errors
 *
 * @see [Errors](../../../docs/errors.md): the error body and every code.
 */
export const ErrorCode = {
  /** 400: a client error that fits no other code (spec 7.1.4). */
  BadRequest: 40000,
  /** 400: the request body is not well-formed (e.g. malformed JSON). */
  MalformedBody: 40001,
  /** 400: a field of the body has the wrong type or value. */
  InvalidField: 40002,
  /** 400: a required field of the body is missing. */
  MissingField: 40003,
  /** 400: the body has a field the resource does not know. */
  UnknownField: 40004,
  /** 400: a query parameter has a wrong value or is out of range. */
  InvalidParameter: 40005,
  /** 400: the request path cannot be decoded (bad percent-encoding). */
  MalformedPath: 40006,
  /** 400: the body is required but empty. */
  MissingBody: 40007,
  /** 400: the last entry of an error body that was cut at its cap: it counts the problems left out. */
  MoreErrors: 40008,
  /** 400: a request header is malformed, or repeated where only one is allowed. */
  MalformedHeader: 40009,
  /** 400: two paging styles in one request, or a paging parameter given more than once (spec 4.4). */
  PagingConflict: 40010,
  /** 400: a paging cursor this service did not issue, was altered, or belongs to another sort. */
  InvalidCursor: 40011,
  /** 400: `fields` names a field the resource (or the chosen view) does not have (spec 2.10). */
  UnknownSelectedField: 40012,
  /** 400: a query parameter the route does not declare (spec 4.4). */
  UnknownParameter: 40013,
  /** 400: an exact-match filter's value does not fit the field's type (spec 4.4). */
  InvalidFilter: 40014,
  /** 400: `sort` names a field the list cannot be sorted by. */
  UnknownSortField: 40015,
  /** 400: `view` names a response group the resource does not have (spec 2.10). */
  UnknownView: 40016,
  /** 400: `fields` is not a well-formed selection such as `id,title,author(name)` (spec 2.10). */
  MalformedFields: 40017,
  /** 400: the request line is not well-formed HTTP/1.1 (an unknown or lower-case method, a bad target). */
  MalformedRequestLine: 40025,
  /** 400: a header line is not well-formed (a space in its name, a control byte, a folded line). */
  MalformedHeaderLine: 40026,
  /** 400: the body's framing is ambiguous or broken (Content-Length with Transfer-Encoding, bad chunks). */
  MalformedFraming: 40027,
  /** 400: an HTTP/1.1 request has no usable `Host` header (RFC 9112 §3.2). */
  InvalidHost: 40028,
  /** 400: a body sent with a content coding the route reads (gzip, br) does not decode. */
  MalformedEncoding: 40029,
  /** 400: the body sets a field the route does not let clients write (`role`, `ownerId`, `__proto__`). */
  ReadOnlyField: 40030,
  /** 400: OAuth `invalid_request`: a parameter is missing, malformed or not allowed (RFC 6749 §5.2). */
  OAuthInvalidRequest: 40040,
  /** 400: OAuth `invalid_grant`: the grant (password, code, refresh token) is invalid, expired or used (RFC 6749 §5.2). */
  OAuthInvalidGrant: 40041,
  /** 400: OAuth `unauthorized_client`: the client may not use this grant type (RFC 6749 §5.2). */
  OAuthUnauthorizedClient: 40042,
  /** 400: OAuth `unsupported_grant_type`: the server knows no such grant type (RFC 6749 §5.2). */
  OAuthUnsupportedGrantType: 40043,
  /** 400: OAuth `invalid_scope`: the scope is unknown, or wider than allowed (RFC 6749 §5.2). */
  OAuthInvalidScope: 40044,
  /** 400: OAuth `unsupported_token_type`: the server cannot revoke this kind of token (RFC 7009 §2.2.1). */
  OAuthUnsupportedTokenType: 40045,
  /** 400: OAuth `invalid_request`: a parameter was sent more than once (RFC 6749 §3.1, §3.2). */
  OAuthRepeatedParameter: 40046,
  /** 400: the authorization request names an unknown client or a redirect URI not registered for it (RFC 6749 §4.1.2.1). */
  OAuthInvalidRedirect: 40047,
  /** 400: OAuth `unsupported_response_type` at the authorization endpoint (RFC 6749 §4.1.2.1). */
  OAuthUnsupportedResponseType: 40048,
  /** 400: the version asked for by query or media type is not one the endpoint serves (spec 9.2). */
  UnknownVersion: 40050,
  /** 400: the body does not fit the route's schema (a Standard Schema); one entry per issue. */
  InvalidBody: 40060,
  /** 400: the query does not fit the route's `query` schema; one entry per issue. */
  InvalidQuery: 40061,
  /** 400: the path parameters do not fit the route's `params` schema; one entry per issue. */
  InvalidParams: 40062,
  /** 400: the headers do not fit the route's `headers` schema; one entry per issue. */
  InvalidHeaders: 40063,
  /** 401: the caller is not identified (spec 5.8). */
  Unauthorized: 40100,
  /** 401: the access token is expired, revoked or malformed (spec 5.6, RFC 6750 §3.1). */
  InvalidToken: 40101,
  /** 401: OAuth `invalid_client`: client authentication failed (RFC 6749 §5.2). */
  OAuthInvalidClient: 40102,
  /** 403: the caller is identified but not allowed (spec 5.8). */
  Forbidden: 40300,
  /** 403: the token lacks a required scope (RFC 6750 §3.1 insufficient_scope). */
  InsufficientScope: 40301,
  /** 403: the request came over plain HTTP where the service requires HTTPS (spec 4.8). */
  HttpsRequired: 40302,
  /** 403: a CORS preflight from an origin the service does not allow (spec 4.8). */
  OriginNotAllowed: 40303,
  /** 403: a state-changing request came from another site (CSRF, spec 4.8). */
  CrossSiteRequest: 40304,
  /** 403: a cookie-authenticated request carries no CSRF token (spec 4.8). */
  CsrfTokenMissing: 40305,
  /** 403: the CSRF token is not valid for this session, or a one-time token was used already. */
  CsrfTokenInvalid: 40306,
  /** 403: the route needs a token issued to a user; a client-credentials token has none. */
  UserRequired: 40310,
  /** 404: the resource does not exist (spec 7.1.3). */
  NotFound: 40400,
  /** 404: no route matches the path. */
  NoRoute: 40401,
  /** 404: the path has upper-case letters (spec 4.1.3). */
  UpperCasePath: 40402,
  /** 405: the path exists, the method does not (spec 7.2). */
  MethodNotAllowed: 40500,
  /** 406: the requested format is not supported (spec 4.5). */
  NotAcceptable: 40600,
  /** 406: the `format` query parameter names a format the resource does not offer (spec 4.5). */
  FormatNotOffered: 40601,
  /** 408: the request took too long to arrive. */
  RequestTimeout: 40800,
  /** 408: the request's headers, or the whole request, did not arrive within the server's timeout. */
  SlowRequest: 40801,
  /** 409: the request conflicts with the resource's state, e.g. a duplicate identifier. */
  Conflict: 40900,
  /** 410: the resource existed and is gone (or its version was retired). */
  Gone: 41000,
  /** 410: the endpoint's version passed its announced sunset date and is no longer served (spec 9.8). */
  Retired: 41001,
  /** 412: a precondition such as `If-Match` failed. */
  PreconditionFailed: 41200,
  /** 412: `If-None-Match` matched a current representation of a resource a write would change. */
  ResourceExists: 41201,
  /** 413: the body is larger than the limit. */
  PayloadTooLarge: 41300,
  /** 413: the body is larger than the limit once its content coding is decoded. */
  DecodedBodyTooLarge: 41301,
  /** 413: the body nests arrays and objects deeper than its `bodyStructure` allows (`maxDepth`). */
  BodyTooDeep: 41302,
  /** 413: an array of the body (a form field repeated) holds more items than `maxItems`. */
  ArrayTooLong: 41303,
  /** 413: an object of the body (a form's distinct fields) holds more members than `maxMembers`. */
  ObjectTooLarge: 41304,
  /** 413: the body holds more values in all (a form more fields) than `maxValues`. */
  TooManyValues: 41305,
  /** 414: the URI is longer than the limit. */
  UriTooLong: 41400,
  /** 415: the body's Content-Type is not supported (spec 4.6). */
  UnsupportedMediaType: 41500,
  /** 415: the body's `Content-Encoding` is not one the route decodes. */
  UnsupportedContentEncoding: 41501,
  /** 417: the `Expect` header asks for something other than `100-continue` (RFC 9110 §10.1.1). */
  ExpectationFailed: 41700,
  /** 428: the request must be conditional (e.g. `If-Match` required). */
  PreconditionRequired: 42800,
  /** 429: the rate limit is exceeded (spec 8.2). */
  TooManyRequests: 42900,
  /** 431: the request's header section (request line included) is larger than the server reads. */
  HeadersTooLarge: 43100,
  /** 431: the `Accept` header is longer than the 4,096 characters negotiated (RFC 6585 §5). */
  AcceptTooLong: 43101,
  /** 431: the `Accept` header lists more than the 64 media ranges negotiated (RFC 6585 §5). */
  TooManyMediaRanges: 43102,
  /** 500: a fault on the server; the body never carries its details. */
  Internal: 50000,
  /** 500: a handler returned a bare top-level array (spec 2.7): a programming error. */
  BareArray: 50001,
  /** 501: a transfer coding other than chunked (RFC 9112 §6.1), or a method such as CONNECT the service does not implement. */
  NotImplemented: 50100,
  /** 503: the service, or a store it needs, is temporarily unavailable. */
  Unavailable: 50300,
  /** 503: a store the request needs failed or did not answer in time; nothing was decided without it. */
  StoreUnavailable: 50301,
  /** 503: the identity provider's key set could not be fetched, so a token could not be checked. */
  KeySetUnavailable: 50302,
  /** 503: a check of the request (a schema, `authorize`, `resourceVersion`) did not settle within `checkTimeout`. */
  CheckTimeout: 50303,
} as const;

/**
 * One of the codes in {@link ErrorCode}. Services may add their own codes in the same scheme.
 *
 * @category Errors
 */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The reason phrase of each status the spec's table lists (spec 7.2), and of those HTTP itself
 * gives a host that refuses a request before the library runs (417, 431, 501; RFC 9110 §15).
 *
 * @category Errors
 */
export const statusText: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};
