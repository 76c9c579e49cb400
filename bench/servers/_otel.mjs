/**
 * Telemetry for the bench's full stacks: `BENCH_OTEL=noop` installs `telemetry()` with
 * the OpenTelemetry API alone (no SDK: its no-op tracer and meter); `BENCH_OTEL=sdk` first
 * registers a real SDK whose spans and metrics go to in-memory exporters, emptied every 100 ms so
 * that a long run does not grow. `BENCH_OTEL=http` registers that SDK, an AsyncLocalStorage
 * context manager and OpenTelemetry's own HTTP instrumentation (`@opentelemetry/instrumentation-http`,
 * as `getNodeAutoInstrumentations()` loads it) and no `telemetry()`: what the usual instrumentation
 * of a Node server costs the same stack. `BENCH_OTEL=http-ours` adds `telemetry()` to that, which
 * then adopts the instrumentation's span (the production set-up). `BENCH_IDS=1` adds request ids.
 * Anything else: none of it.
 */
import { createRequire } from 'node:module';
import { metrics, propagation, trace } from '@opentelemetry/api';
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

/** What `fullStack()` takes for the telemetry the environment asks for. */
export async function otelOptions() {
  const mode = process.env.BENCH_OTEL;
  const first = [];
  if (mode === 'http' || mode === 'http-ours') await registerHttpInstrumentation();
  if (mode === 'noop' || mode === 'sdk' || mode === 'http-ours') {
    if (mode === 'sdk') registerSdk();
    const { telemetry } = await import('../../dist/otel.mjs');
    first.push(telemetry());
  }
  return { first, options: process.env.BENCH_IDS === '1' ? { requestIds: true } : {} };
}
