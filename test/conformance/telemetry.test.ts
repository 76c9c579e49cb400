/**
 * Observability on every host: with the OpenTelemetry SDK's in-memory span exporter
 * and metric reader, the same request set gives the same spans (names, kinds, statuses,
 * attributes) on node:http, Express 5 and 4, Fastify and Hono; a `traceparent` is continued;
 * many ids of one route are one span name and one `http.route`; the duration histogram has a
 * point per route and status; request ids round-trip and are on the logger's lines.
 */
import { Writable } from 'node:stream';
import { metrics, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../../examples/bookshelf/hosts/host.ts';
import { hosts } from './_matrix.ts';
import { serveTelemetry, telemetryApi } from './_telemetry-apps.ts';
import { expectedSpans, requestSet, summary } from './_telemetry-expected.ts';

const spans = new InMemorySpanExporter();

beforeAll(() => {
  // The global API, as a service sets it up: the plugin finds the provider and propagator there.
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  );
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});

afterAll(() => {
  trace.disable();
  propagation.disable();
  metrics.disable();
});

const idOf = (span: ReadableSpan) => span.attributes['api_conventions.request_id'] as string;

/** The spans of these request ids, once each has ended (a host reports after it wrote). */
async function spansOf(ids: readonly string[]): Promise<ReadableSpan[]> {
  const wanted = new Set(ids);
  const found = () => spans.getFinishedSpans().filter((span) => wanted.has(idOf(span)));
  // Bounded in turns of the event loop, not in time.
  for (let turn = 0; turn < 2000 && found().length < wanted.size; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const byId = new Map(found().map((span) => [idOf(span), span]));
  return ids.map((id) => {
    const span = byId.get(id);
    if (span === undefined) throw new Error(`no span for request ${id}`);
    return span;
  });
}

// The semantic conventions' bucket boundaries for http.server.request.duration, in seconds.
const buckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(hosts)('telemetry and request ids on %s', (adapter) => {
  let running: Running;
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { base: undefined },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  let sequence = 0;
  const nextId = () => `${adapter}.${++sequence}`;
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${running.port}${path}`, { redirect: 'manual', ...init });

  beforeAll(async () => {
    running = await serveTelemetry(adapter, telemetryApi(adapter, meterProvider, logger));
  });
  afterAll(async () => {
    await running?.close();
    await meterProvider.shutdown();
  });

  it('gives the same span names, kinds, statuses and attributes for the request set', async () => {
    const ids: string[] = [];
    let etag = '';
    for (const request of requestSet) {
      const id = nextId();
      ids.push(id);
      const headers: Record<string, string> = { 'x-request-id': id };
      if (request.conditional) headers['if-none-match'] = etag;
      const res = await send(request.path, { method: request.method ?? 'GET', headers });
      await res.arrayBuffer();
      etag ||= res.headers.get('etag') ?? '';
      expect(res.status).toBe(request.span.attributes['http.response.status_code']);
    }
    const found = await spansOf(ids);
    // A fetch host (Hono on Node here) knows the peer's address, not the connection's details.
    expect(found.map(summary)).toEqual(expectedSpans(adapter !== 'fetch'));
  });

  it('records the duration histogram with a point per route and status, in seconds', async () => {
    await reader.forceFlush();
    const exported = metricExporter.getMetrics().at(-1)!;
    const all = exported.scopeMetrics.flatMap((scope) => scope.metrics);
    const duration = all.find(
      (metric) => metric.descriptor.name === 'http.server.request.duration',
    ) as HistogramMetricData;
    expect(duration.descriptor.unit).toBe('s');
    const points = duration.dataPoints.map(({ attributes: a }) =>
      [a['http.request.method'], a['http.route'] ?? '(none)', a['http.response.status_code']].join(
        ' ',
      ),
    );
    expect(points.sort()).toEqual(
      [
        'DELETE /v1/things/:id 204',
        'GET (none) 404',
        'GET /v1/books/:id 200',
        'GET /v1/books/:id 304',
        'GET /v1/failures 500',
        'GET /v1/limited 200',
        'GET /v1/limited 429',
        'GET /v1/private 401',
      ].sort(),
    );
    for (const point of duration.dataPoints) {
      expect(point.value.buckets.boundaries).toEqual(buckets);
      expect(point.value.count).toBeGreaterThan(0);
      expect(point.attributes['error.type']).toBe(
        Number(point.attributes['http.response.status_code']) >= 500 ? '500' : undefined,
      );
    }
    // Every request that started has ended: the active-requests counter is back at zero.
    const active = all.find(
      (metric) => metric.descriptor.name === 'http.server.active_requests',
    ) as SumMetricData;
    expect(active.dataPoints.reduce((sum, point) => sum + point.value, 0)).toBe(0);
  });

  it('continues an incoming traceparent (W3C Trace Context §3.2)', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const id = nextId();
    await (
      await send('/v1/books/dune', {
        headers: { 'x-request-id': id, traceparent: `00-${traceId}-${parent}-01` },
      })
    ).arrayBuffer();
    const [span] = await spansOf([id]);
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext?.spanId).toBe(parent);
  });

  it('names 1,000 distinct ids of one route with one span name and one http.route', async () => {
    const ids = Array.from({ length: 1000 }, nextId);
    for (let at = 0; at < ids.length; at += 50) {
      await Promise.all(
        ids.slice(at, at + 50).map(async (id, i) => {
          const res = await send(`/v1/books/book-${at + i}`, { headers: { 'x-request-id': id } });
          await res.arrayBuffer();
        }),
      );
    }
    const found = await spansOf(ids);
    expect(new Set(found.map((span) => span.name))).toEqual(new Set(['GET /v1/books/:id']));
    expect(new Set(found.map((span) => span.attributes['http.route']))).toEqual(
      new Set(['/v1/books/:id']),
    );
    // And paths no route serves share one name, without an http.route.
    const unmatched = Array.from({ length: 50 }, nextId);
    for (const [i, id] of unmatched.entries()) {
      await (await send(`/v1/nowhere-${i}/x${i}`, { headers: { 'x-request-id': id } })).text();
    }
    const strays = await spansOf(unmatched);
    expect(new Set(strays.map((span) => span.name))).toEqual(new Set(['GET']));
    expect(strays.every((span) => span.attributes['http.route'] === undefined)).toBe(true);
  });

  it('keeps a well-formed X-Request-Id, replaces others, echoes it and puts it on the span', async () => {
    for (const [method, path] of [
      ['GET', '/v1/books/dune'],
      ['DELETE', '/v1/things/t2'],
      ['GET', '/v1/nothing-here'],
      ['GET', '/v1/private'],
    ] as const) {
      const kept = await send(path, { method, headers: { 'x-request-id': 'abc-123.X_y:z' } });
      expect(kept.headers.get('x-request-id')).toBe('abc-123.X_y:z');
      for (const sent of [undefined, 'two words', 'x'.repeat(129), 'a;b']) {
        const res = await send(path, {
          method,
          headers: sent === undefined ? {} : { 'x-request-id': sent },
        });
        await res.arrayBuffer();
        const echoed = res.headers.get('x-request-id') ?? '';
        expect(echoed).toMatch(uuid);
        const [span] = await spansOf([echoed]);
        expect(span!.attributes['url.path']).toBe(path);
      }
    }
  });

  it("writes the request id, route and trace id on the logger's lines (pino's child)", async () => {
    const id = nextId();
    const res = await send('/v1/failures', { headers: { 'x-request-id': id } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe(id);
    const [span] = await spansOf([id]);
    logger.flush();
    const line = lines.find((entry) => entry.requestId === id);
    expect(line).toMatchObject({
      level: 50,
      msg: 'GET /v1/failures failed',
      route: '/v1/failures',
      trace_id: span!.spanContext().traceId,
      span_id: span!.spanContext().spanId,
      err: { message: 'a route failed on purpose' },
    });
  });
});
