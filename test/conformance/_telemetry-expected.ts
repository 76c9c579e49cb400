/**
 * What the telemetry suites expect on every host: the request set, in order, and the
 * span each request must give, with what differs per server masked.
 */
import { type Attributes, SpanKind } from '@opentelemetry/api';

/** What must be the same on every host: the per-server port and the request id masked. */
export function summary(span: {
  name: string;
  kind: SpanKind;
  status: { code: number };
  attributes: Attributes;
}): SpanSummary {
  const attributes: Attributes = { ...span.attributes };
  attributes['server.port'] = '<port>';
  if (attributes['network.peer.port'] !== undefined) attributes['network.peer.port'] = '<port>';
  attributes['api_conventions.request_id'] = '<id>';
  return { name: span.name, kind: span.kind, status: span.status.code, attributes };
}

/** A span as the suites compare it. */
export interface SpanSummary {
  name: string;
  kind: SpanKind;
  status: number;
  attributes: Attributes;
}

const common = (method: string, path: string, status: number): Attributes => ({
  'http.request.method': method,
  'http.response.status_code': status,
  'url.path': path,
  'url.scheme': 'http',
  'server.address': '127.0.0.1',
  'server.port': '<port>',
  'client.address': '127.0.0.1',
  'user_agent.original': 'node',
  'api_conventions.request_id': '<id>',
  'api_conventions.auth.outcome': 'anonymous',
});

/** The request set and the span each must give, on every host. */
export const requestSet: {
  what: string;
  method?: string;
  path: string;
  conditional?: true;
  span: SpanSummary;
}[] = [
  {
    what: 'a table route',
    path: '/v1/books/dune',
    span: {
      name: 'GET /v1/books/:id',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: {
        ...common('GET', '/v1/books/dune', 200),
        'http.route': '/v1/books/:id',
        'api_conventions.cache.result': 'etag',
      },
    },
  },
  {
    what: "the app's own route",
    method: 'DELETE',
    path: '/v1/things/t1',
    span: {
      name: 'DELETE /v1/things/:id',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: { ...common('DELETE', '/v1/things/t1', 204), 'http.route': '/v1/things/:id' },
    },
  },
  {
    what: 'a 404',
    path: '/v1/nothing-here',
    span: {
      name: 'GET',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: common('GET', '/v1/nothing-here', 404),
    },
  },
  {
    what: 'a 401',
    path: '/v1/private',
    span: {
      name: 'GET /v1/private',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: {
        ...common('GET', '/v1/private', 401),
        'http.route': '/v1/private',
        'api_conventions.auth.outcome': 'refused',
      },
    },
  },
  {
    what: 'the last request within a limit',
    path: '/v1/limited',
    span: {
      name: 'GET /v1/limited',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: {
        ...common('GET', '/v1/limited', 200),
        'http.route': '/v1/limited',
        'api_conventions.rate_limit.remaining': 0,
        'api_conventions.cache.result': 'etag',
      },
    },
  },
  {
    what: 'a 429',
    path: '/v1/limited',
    span: {
      name: 'GET /v1/limited',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: {
        ...common('GET', '/v1/limited', 429),
        'http.route': '/v1/limited',
        'api_conventions.rate_limit.remaining': 0,
      },
    },
  },
  {
    what: 'a 304',
    path: '/v1/books/dune',
    conditional: true,
    span: {
      name: 'GET /v1/books/:id',
      kind: SpanKind.SERVER,
      status: 0,
      attributes: {
        ...common('GET', '/v1/books/dune', 304),
        'http.route': '/v1/books/:id',
        'api_conventions.cache.result': 'not_modified',
      },
    },
  },
  {
    what: 'a 500',
    path: '/v1/failures',
    span: {
      name: 'GET /v1/failures',
      kind: SpanKind.SERVER,
      status: 2,
      attributes: {
        ...common('GET', '/v1/failures', 500),
        'http.route': '/v1/failures',
        'error.type': '500',
      },
    },
  },
];

/**
 * The spans of the request set on a host: every host knows the peer's address (a fetch host
 * through its `remoteAddress` option); a Node host knows the connection too, its HTTP version and
 * the peer's port.
 */
export function expectedSpans(knowsConnection: boolean): SpanSummary[] {
  const network: Attributes = { 'network.peer.address': '127.0.0.1' };
  if (knowsConnection) {
    network['network.protocol.version'] = '1.1';
    network['network.peer.port'] = '<port>';
  }
  return requestSet.map(({ span }) => ({
    ...span,
    attributes: { ...span.attributes, ...network },
  }));
}
