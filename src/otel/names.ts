/**
 * Every name the telemetry writes, in one table: OpenTelemetry's HTTP semantic conventions from
 * `@opentelemetry/semantic-conventions` (the stable ones, bundled into the build as plain
 * strings), the two this library needs that are still incubating there, and its own
 * `api_conventions.*` decisions.
 */
export {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PEER_PORT,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
  HTTP_REQUEST_METHOD_VALUE_OTHER,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';

// Incubating in the semantic conventions, whose guide asks libraries to copy such names rather
// than import the unstable entry point, which may change them in a minor release.
export const ATTR_USER_ID = 'user.id';
export const METRIC_HTTP_SERVER_ACTIVE_REQUESTS = 'http.server.active_requests';

// The library's own decisions.
export const ATTR_REQUEST_ID = 'api_conventions.request_id';
export const ATTR_AUTH_OUTCOME = 'api_conventions.auth.outcome';
export const ATTR_AUTH_VIA = 'api_conventions.auth.via';
export const ATTR_RATE_LIMIT_POLICY = 'api_conventions.rate_limit.policy';
export const ATTR_RATE_LIMIT_REMAINING = 'api_conventions.rate_limit.remaining';
export const ATTR_CACHE_RESULT = 'api_conventions.cache.result';
export const ATTR_MEDIA_TYPE = 'api_conventions.negotiation.media_type';
export const ATTR_VERSION = 'api_conventions.version';
export const ATTR_DEPRECATED = 'api_conventions.deprecated';
