/**
 * The bookshelf's OpenTelemetry set-up (docs/observability.md): with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, spans go to that OTLP/HTTP endpoint (a collector, Jaeger), batched; OTEL_SERVICE_NAME names
 * the service (bookshelf by default). Registered globally before the service is built, so the
 * `telemetry()` plugin finds it through `@opentelemetry/api`.
 */
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Tracing as started: `shutdown()` exports what is still batched, then stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/** Starts tracing to the OTLP endpoint of the environment (the exporter reads it itself). */
export function startTracing(serviceName = process.env.OTEL_SERVICE_NAME || 'bookshelf'): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return { shutdown: () => provider.shutdown() };
}
