/**
 * Bun serving the telemetry suite's service behind Hono, with the OpenTelemetry SDK's
 * in-memory span exporter and metric reader in the same process. `GET /__telemetry`, answered
 * outside the service, hands the test what they hold.
 */
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { toFetchErrorHandler, toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
import { Hono } from 'hono';
import { telemetryApi } from '../conformance/_telemetry-service.ts';

interface BunServer {
  requestIP(request: Request): { address: string } | null;
}

declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
  }): { port: number };
};

const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});
const meterProvider = new MeterProvider({ readers: [reader] });

const api = telemetryApi('bun', meterProvider, { error() {}, warn() {} });
const remoteAddress = (request: Request, c: { env: BunServer }) =>
  c.env.requestIP(request)?.address;
const app = new Hono<{ Bindings: BunServer }>();
app.use('*', toFetchMiddleware(api, { routes: () => app.routes, remoteAddress }));
app.onError(toFetchErrorHandler(api));
app.delete('/v1/things/:id', (c) => c.body(null, 204));
app.notFound(toFetchHandler(api, { remoteAddress }));

/** What the test reads: every finished span, and the duration histogram's points. */
async function telemetryNow(): Promise<Response> {
  await reader.forceFlush();
  const duration = metricExporter
    .getMetrics()
    .at(-1)
    ?.scopeMetrics.flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === 'http.server.request.duration') as
    | HistogramMetricData
    | undefined;
  return Response.json({
    spans: spans.getFinishedSpans().map((span) => ({
      name: span.name,
      kind: span.kind,
      status: span.status,
      attributes: span.attributes,
      traceId: span.spanContext().traceId,
      parentSpanId: span.parentSpanContext?.spanId,
    })),
    points: (duration?.dataPoints ?? []).map((point) => point.attributes),
  });
}

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request, bun) =>
    new URL(request.url).pathname === '/__telemetry' ? telemetryNow() : app.fetch(request, bun),
});
console.log(`listening ${server.port}`);
