// OpenTelemetry's http and Express instrumentations and @fastify/otel, as a service loads them.
'use strict';
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
const { FastifyOtelInstrumentation } = require('@fastify/otel');
const { NodeTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { printer } = require('./spans.cjs');

new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(printer)] }).register();
registerInstrumentations({
  instrumentations: [
    new HttpInstrumentation(),
    new ExpressInstrumentation(),
    new FastifyOtelInstrumentation({ registerOnInitialization: true }),
  ],
});
