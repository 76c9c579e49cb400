/**
 * Telemetry on Bun: the telemetry suite's service behind Hono on `Bun.serve`, with the
 * OpenTelemetry SDK's in-memory exporter and reader in the Bun process, gives the same spans for
 * the same request set as node:http, Express, Fastify and Hono on Node
 * (test/conformance/telemetry.test.ts), continues a traceparent, and records the same histogram.
 */
import type { Attributes, SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSpans, requestSet, summary } from '../conformance/_telemetry-expected.ts';
import { type RuntimeServer, startRuntime } from './_runtimes.ts';

interface Reported {
  spans: {
    name: string;
    kind: SpanKind;
    status: { code: number };
    attributes: Attributes;
    traceId: string;
    parentSpanId?: string;
  }[];
  points: Attributes[];
}

describe('telemetry on Bun', () => {
  let server: RuntimeServer | undefined;
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${server!.url}${path}`, { redirect: 'manual', ...init });
  const reported = async () => (await (await send('/__telemetry')).json()) as Reported;
  const byId = (all: Reported, id: string) =>
    all.spans.find((span) => span.attributes['api_conventions.request_id'] === id);

  beforeAll(async () => {
    server = await startRuntime('bun', '_bun-telemetry.ts');
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('gives the same span names, kinds, statuses and attributes for the request set as on Node', async () => {
    let etag = '';
    const ids: string[] = [];
    for (const [i, request] of requestSet.entries()) {
      const id = `bun.${i}`;
      ids.push(id);
      const headers: Record<string, string> = { 'x-request-id': id };
      if (request.conditional) headers['if-none-match'] = etag;
      const res = await send(request.path, { method: request.method ?? 'GET', headers });
      await res.arrayBuffer();
      etag ||= res.headers.get('etag') ?? '';
      expect(res.headers.get('x-request-id')).toBe(id);
    }
    const all = await reported();
    expect(ids.map((id) => summary(byId(all, id)!))).toEqual(expectedSpans(false));
    const points = all.points.map((a) =>
      [a['http.request.method'], a['http.route'] ?? '(none)', a['http.response.status_code']].join(
        ' ',
      ),
    );
    expect(points.sort()).toEqual(
      requestSet
        .map(({ span: { attributes: a } }) =>
          [
            a['http.request.method'],
            a['http.route'] ?? '(none)',
            a['http.response.status_code'],
          ].join(' '),
        )
        .sort(),
    );
  });

  it('continues an incoming traceparent (W3C Trace Context §3.2)', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    await (
      await send('/v1/books/dune', {
        headers: { 'x-request-id': 'bun.traced', traceparent: `00-${traceId}-${parent}-01` },
      })
    ).arrayBuffer();
    const span = byId(await reported(), 'bun.traced');
    expect(span?.traceId).toBe(traceId);
    expect(span?.parentSpanId).toBe(parent);
    expect(span?.name).toBe('GET /v1/books/:id');
  });
});
