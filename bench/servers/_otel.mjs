/**
 * Telemetry for the bench's full stacks: `BENCH_OTEL=noop` installs `telemetry()` with
 * the OpenTelemetry API alone (no SDK: its no-op tracer and meter); `BENCH_OTEL=sdk` first
 * registers a real SDK whose spans and metrics go to in-memory exporters, emptied every 100 ms so
 * that a long run does not grow. `BENCH_OTEL=http` registers that SDK, an AsyncLocalStorage
 * context manager and OpenTelemetry's own HTTP instrumentation (`@opentelemetry/instrumentation-http`,
 * as `getNodeAutoInstrumentations()` loads it) and no `telemetry()`: what the usual instrumentation
 * of a Node server costs the same stack. `BENCH_OTEL=http-ours` adds `telemetry()` to that, which
 * then adopts the instrumentation's span (the production set-up). `BENCH_OTEL=floor` registers the
 * SDK and, instead of `telemetry()`, a plugin that makes the SDK calls any instrumentation of one
 * request makes (the ones `bench/telemetry.mjs` times as the floor) and nothing else: what the SDK
 * itself costs the same stack. `BENCH_IDS=1` adds request ids.
 * Anything else: none of it.
 */
import { createRequire } from 'node:module';
import { metrics, propagation, SpanKind, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * The SDK, spans and metrics to memory. `withContext`: as a Node service registers it
 * (`NodeTracerProvider.register()`: an AsyncLocalStorage context manager and the W3C propagator).
 */
function registerSdk(withContext = false) {
  const spans = new InMemorySpanExporter();
  const spanProcessors = [new BatchSpanProcessor(spans)];
  if (withContext) new NodeTracerProvider({ spanProcessors }).register();
  else {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors }));
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  const exported = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({ exporter: exported, exportIntervalMillis: 1000 }),
      ],
    }),
  );
  // Emptied often, as an exporter that sends its batches drops them: spans kept for seconds
  // would be the bench's garbage, not the library's cost.
  setInterval(() => {
    spans.reset();
    exported.reset();
  }, 100).unref();
}

/**
 * OpenTelemetry's HTTP instrumentation on the SDK, with the context manager it needs to make its
 * SERVER span the active one. It patches `http.Server.prototype.emit` when `http` is required, so
 * it is required here, once the hook is in place: the server's `import` shares that prototype.
 */
async function registerHttpInstrumentation() {
  registerSdk(true);
  const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http');
  registerInstrumentations({ instrumentations: [new HttpInstrumentation()] });
  createRequire(import.meta.url)('node:http');
}

/**
 * The SDK's floor as a plugin: a SERVER span started with three attributes, named by route, nine
 * more set and ended, and one duration point with the four required attributes.
 */
function floorPlugin() {
  const tracer = trace.getTracer('floor');
  const histogram = metrics.getMeter('floor').createHistogram('http.server.request.duration');
  const watched = Symbol('floor');
  return {
    name: 'floor',
    onReceive(ctx) {
      const span = tracer.startSpan('GET', {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': ctx.method,
          'url.path': ctx.path,
          'url.scheme': 'http',
        },
      });
      ctx.state[watched] = { span, start: performance.now() };
    },
    onResponse(ctx, status) {
      const { span, start } = ctx.state[watched];
      const route = ctx.route?.pattern ?? 'unmatched';
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({
        'http.response.status_code': status,
        'http.route': route,
        'server.address': 'localhost',
        'server.port': 3000,
        'client.address': '127.0.0.1',
        'user_agent.original': 'bench',
        'api_conventions.auth.outcome': 'authenticated',
        'api_conventions.cache.result': 'etag',
        'api_conventions.negotiation.media_type': 'application/json',
      });
      span.end();
      histogram.record((performance.now() - start) / 1000, {
        'http.request.method': ctx.method,
        'url.scheme': 'http',
        'http.response.status_code': status,
        'http.route': route,
      });
    },
  };
}

/** What `fullStack()` takes for the telemetry the environment asks for. */
export async function otelOptions() {
  const mode = process.env.BENCH_OTEL;
  const first = [];
  if (mode === 'http' || mode === 'http-ours') await registerHttpInstrumentation();
  if (mode === 'floor') {
    registerSdk();
    first.push(floorPlugin());
  }
  if (mode === 'noop' || mode === 'sdk' || mode === 'http-ours') {
    if (mode === 'sdk') registerSdk();
    const { telemetry } = await import('../../dist/otel.mjs');
    first.push(telemetry());
  }
  return { first, options: process.env.BENCH_IDS === '1' ? { requestIds: true } : {} };
}
