/**
 * What a request's span and metrics say, in the names of OpenTelemetry's HTTP semantic
 * conventions (stable since 1.23), and the library's decisions under `api_conventions.*`.
 */
import type { Attributes } from '@opentelemetry/api';
import type { RequestContext } from 'api-conventions';
import {
  ATTR_AUTH_OUTCOME,
  ATTR_AUTH_VIA,
  ATTR_CACHE_RESULT,
  ATTR_CLIENT_ADDRESS,
  ATTR_DEPRECATED,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_MEDIA_TYPE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PEER_PORT,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_RATE_LIMIT_POLICY,
  ATTR_RATE_LIMIT_REMAINING,
  ATTR_REQUEST_ID,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_USER_AGENT_ORIGINAL,
  ATTR_USER_ID,
  ATTR_VERSION,
  HTTP_REQUEST_METHOD_VALUE_OTHER,
} from './names.ts';

/** The methods the semantic conventions know; any other is `_OTHER` (its own in `…_original`). */
const knownMethods = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
  'QUERY',
]);

/** The method as the conventions name it: one of the known methods, or `_OTHER`. */
export function methodOf(method: string): string {
  return knownMethods.has(method) ? method : HTTP_REQUEST_METHOD_VALUE_OTHER;
}

/**
 * The span's name: `{method} {route}`, `HTTP {route}` for a method the conventions do not know,
 * and the method alone (or `HTTP`) without a route.
 */
export function spanName(method: string, route: string | undefined): string {
  const shown = method === HTTP_REQUEST_METHOD_VALUE_OTHER ? 'HTTP' : method;
  return route === undefined ? shown : `${shown} ${route}`;
}

/** The version as the conventions write it: `1.0`, `1.1`, `2`, `3` (Node says `2.0`). */
function protocolVersion(version: string): string {
  return version.endsWith('.0') && version !== '1.0' ? version.slice(0, -2) : version;
}

// A server is asked by one or a few `Host` values: the last one is split once, not per request.
let lastHost: string | undefined;
let lastSplit: readonly [string, number | undefined] = ['', undefined];

/** The host and port of a `Host` value (`[::1]:8080`, `api.example.com`). */
function splitHost(host: string): readonly [string, number | undefined] {
  if (host === lastHost) return lastSplit;
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', end);
  let split: readonly [string, number | undefined];
  if (colon === -1) split = [host, undefined];
  else {
    const port = Number(host.slice(colon + 1));
    split = [host.slice(0, colon), Number.isInteger(port) ? port : undefined];
  }
  lastHost = host;
  lastSplit = split;
  return split;
}

/**
 * What the request says of its client and server, added to `attributes` once it is answered (the
 * method, path and scheme are given when the span starts, for samplers).
 */
export function requestAttributes(
  ctx: RequestContext,
  method: string,
  attributes: Attributes,
): void {
  if (method === HTTP_REQUEST_METHOD_VALUE_OTHER)
    attributes[ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = ctx.method;
  const host = ctx.host;
  if (host !== undefined) {
    const [address, port] = splitHost(host);
    attributes[ATTR_SERVER_ADDRESS] = address;
    if (port !== undefined) attributes[ATTR_SERVER_PORT] = port;
  }
  const client = ctx.remoteAddress;
  if (client !== undefined) attributes[ATTR_CLIENT_ADDRESS] = client;
  const version = ctx.httpVersion;
  if (version !== undefined) attributes[ATTR_NETWORK_PROTOCOL_VERSION] = protocolVersion(version);
  const peer = ctx.peerAddress;
  if (peer !== undefined) attributes[ATTR_NETWORK_PEER_ADDRESS] = peer;
  const peerPort = ctx.peerPort;
  if (peerPort !== undefined) attributes[ATTR_NETWORK_PEER_PORT] = peerPort;
  const agent = ctx.headers.get('user-agent');
  if (typeof agent === 'string') attributes[ATTR_USER_AGENT_ORIGINAL] = agent;
}

/** The name of the first policy and what remains, from `RateLimit` (`"name";r=9;t=60`). */
const rateLimitField = /^"([^"]*)";r=(\d+)/;

/** One header of what was sent (or gathered for the app's own answer), as one string. */
function headerOf(
  headers: Readonly<Record<string, string | string[]>> | undefined,
  name: string,
): string | undefined {
  const value = headers?.[name];
  return value === undefined ? undefined : typeof value === 'string' ? value : value.join(', ');
}

/**
 * The library's decisions on a request, once it is answered: authentication (and, when allowed,
 * the subject), the rate limit, caching, negotiation, version and deprecation.
 */
export function decisionAttributes(
  ctx: RequestContext,
  status: number,
  headers: Readonly<Record<string, string | string[]>> | undefined,
  recordSubject: boolean,
  attributes: Attributes,
): void {
  const requestId = ctx.state.requestId;
  if (requestId !== undefined) attributes[ATTR_REQUEST_ID] = requestId;
  const identity = ctx.identity;
  if (identity !== undefined) {
    attributes[ATTR_AUTH_OUTCOME] = 'authenticated';
    attributes[ATTR_AUTH_VIA] = identity.via;
    if (recordSubject && identity.subject !== undefined)
      attributes[ATTR_USER_ID] = identity.subject;
  } else {
    attributes[ATTR_AUTH_OUTCOME] = status === 401 ? 'refused' : 'anonymous';
  }
  const limit = headerOf(headers, 'ratelimit');
  const parsed = limit === undefined ? null : rateLimitField.exec(limit);
  if (parsed !== null) {
    attributes[ATTR_RATE_LIMIT_POLICY] = parsed[1]!;
    attributes[ATTR_RATE_LIMIT_REMAINING] = Number(parsed[2]);
  } else {
    const remaining = headerOf(headers, 'x-ratelimit-remaining');
    if (remaining !== undefined) {
      attributes[ATTR_RATE_LIMIT_REMAINING] = Number(remaining);
    }
  }
  if (status === 304) attributes[ATTR_CACHE_RESULT] = 'not_modified';
  else if (headerOf(headers, 'etag') !== undefined) attributes[ATTR_CACHE_RESULT] = 'etag';
  const format = ctx.state.format;
  if (format !== undefined) attributes[ATTR_MEDIA_TYPE] = format.type;
  const version = ctx.state.apiVersion;
  if (version !== undefined) attributes[ATTR_VERSION] = version;
  if (headerOf(headers, 'deprecation') !== undefined) {
    attributes[ATTR_DEPRECATED] = true;
  }
}
