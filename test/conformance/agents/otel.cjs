// OpenTelemetry's http and Express instrumentations and @fastify/otel, as a service loads them.
'use strict';
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
const { FastifyOtelInstrumentation } = require('@fastify/otel');
const { NodeTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { metrics } = require('@opentelemetry/api');
const { MeterProvider } = require('@opentelemetry/sdk-metrics');
const { metricsOnSignal, printer } = require('./spans.cjs');

new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(printer)] }).register();
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [metricsOnSignal()] }));
registerInstrumentations({
  instrumentations: [
    new HttpInstrumentation(),
    new ExpressInstrumentation(),
    new FastifyOtelInstrumentation({ registerOnInitialization: true }),
  ],
});
