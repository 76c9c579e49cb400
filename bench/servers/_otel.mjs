/**
 * Telemetry for the bench's full stacks: `BENCH_OTEL=noop` installs `telemetry()` with
 * the OpenTelemetry API alone (no SDK: its no-op tracer and meter); `BENCH_OTEL=sdk` first
 * registers a real SDK whose spans and metrics go to in-memory exporters, emptied every 100 ms so
 * that a long run does not grow. `BENCH_IDS=1` adds request ids. Anything else: none of it.
 */
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

function registerSdk() {
  const spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] }),
  );
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
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

/** What `fullStack()` takes for the telemetry the environment asks for. */
export async function otelOptions() {
  const mode = process.env.BENCH_OTEL;
  const first = [];
  if (mode === 'noop' || mode === 'sdk') {
    if (mode === 'sdk') registerSdk();
    const { telemetry } = await import('../../dist/otel.mjs');
    first.push(telemetry());
  }
  return { first, options: process.env.BENCH_IDS === '1' ? { requestIds: true } : {} };
}
