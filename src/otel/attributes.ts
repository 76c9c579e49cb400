/**
 * What a request's span and metrics say, in the names of OpenTelemetry's HTTP semantic
 * conventions (stable since 1.23), and the library's decisions under `api_conventions.*`.
 */
import type { Attributes } from '@opentelemetry/api';
import type { RequestContext } from 'api-conventions';

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
  return knownMethods.has(method) ? method : '_OTHER';
}

/**
 * The span's name: `{method} {route}`, `HTTP {route}` for a method the conventions do not know,
 * and the method alone (or `HTTP`) without a route.
 */
export function spanName(method: string, route: string | undefined): string {
  const shown = method === '_OTHER' ? 'HTTP' : method;
  return route === undefined ? shown : `${shown} ${route}`;
}

/** The version as the conventions write it: `1.0`, `1.1`, `2`, `3` (Node says `2.0`). */
function protocolVersion(version: string): string {
  return version.endsWith('.0') && version !== '1.0' ? version.slice(0, -2) : version;
}

/** The host and port of a `Host` value (`[::1]:8080`, `api.example.com`). */
function splitHost(host: string): [string, number | undefined] {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', end);
  if (colon === -1) return [host, undefined];
  const port = Number(host.slice(colon + 1));
  return [host.slice(0, colon), Number.isInteger(port) ? port : undefined];
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
  if (method === '_OTHER') attributes['http.request.method_original'] = ctx.method;
  const host = ctx.host;
  if (host !== undefined) {
    const [address, port] = splitHost(host);
    attributes['server.address'] = address;
    if (port !== undefined) attributes['server.port'] = port;
  }
  const client = ctx.remoteAddress;
  if (client !== undefined) attributes['client.address'] = client;
  const version = ctx.httpVersion;
  if (version !== undefined) attributes['network.protocol.version'] = protocolVersion(version);
  const peer = ctx.peerAddress;
  if (peer !== undefined) attributes['network.peer.address'] = peer;
  const peerPort = ctx.peerPort;
  if (peerPort !== undefined) attributes['network.peer.port'] = peerPort;
  const agent = ctx.headers.get('user-agent');
  if (typeof agent === 'string') attributes['user_agent.original'] = agent;
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
  if (requestId !== undefined) attributes['api_conventions.request_id'] = requestId;
  const identity = ctx.identity;
  if (identity !== undefined) {
    attributes['api_conventions.auth.outcome'] = 'authenticated';
    attributes['api_conventions.auth.via'] = identity.via;
    if (recordSubject && identity.subject !== undefined) attributes['user.id'] = identity.subject;
  } else {
    attributes['api_conventions.auth.outcome'] = status === 401 ? 'refused' : 'anonymous';
  }
  const limit = headerOf(headers, 'ratelimit');
  const parsed = limit === undefined ? null : rateLimitField.exec(limit);
  if (parsed !== null) {
    attributes['api_conventions.rate_limit.policy'] = parsed[1]!;
    attributes['api_conventions.rate_limit.remaining'] = Number(parsed[2]);
  } else {
    const remaining = headerOf(headers, 'x-ratelimit-remaining');
    if (remaining !== undefined) {
      attributes['api_conventions.rate_limit.remaining'] = Number(remaining);
    }
  }
  if (status === 304) attributes['api_conventions.cache.result'] = 'not_modified';
  else if (headerOf(headers, 'etag') !== undefined)
    attributes['api_conventions.cache.result'] = 'etag';
  const format = ctx.state.format;
  if (format !== undefined) attributes['api_conventions.negotiation.media_type'] = format.type;
  const version = ctx.state.apiVersion;
  if (version !== undefined) attributes['api_conventions.version'] = version;
  if (headerOf(headers, 'deprecation') !== undefined) {
    attributes['api_conventions.deprecated'] = true;
  }
}
