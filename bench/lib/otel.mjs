/**
 * The OpenTelemetry SDK as the bench installs it, and the SDK calls any instrumentation of one
 * request makes (the floor), shared by the load bench's servers (bench/servers/_otel.mjs) and the
 * in-process `node bench/telemetry.mjs`. Imported only where an SDK is wanted, so that a run
 * without one does not load it.
 */
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
 * A real SDK whose spans (through a `BatchSpanProcessor`) and metrics go to in-memory exporters,
 * emptied every 100 ms. `withContext`: as a Node service registers it
 * (`NodeTracerProvider.register()`: an AsyncLocalStorage context manager and the W3C propagator).
 */
export function registerSdk(withContext = false) {
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
 * The floor, on the global SDK: `start` begins a SERVER span with three attributes; `end` names it
 * by route, sets nine more, ends it and records one duration point with the four required
 * attributes.
 */
export function floorCalls() {
  const tracer = trace.getTracer('floor');
  const histogram = metrics.getMeter('floor').createHistogram('http.server.request.duration');
  return {
    start(method, path) {
      const span = tracer.startSpan(method, {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'url.path': path, 'url.scheme': 'http' },
      });
      return { span, method, start: performance.now() };
    },
    end({ span, method, start }, status, route) {
      span.updateName(`${method} ${route}`);
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
        'http.request.method': method,
        'url.scheme': 'http',
        'http.response.status_code': status,
        'http.route': route,
      });
    },
  };
}
