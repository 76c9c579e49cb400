// The Node SDK with every auto-instrumentation, as most services start OpenTelemetry in a CommonJS
// app (`node --require ./telemetry.cjs app.js`), as docs/observability.md shows.
'use strict';
const { getNodeAutoInstrumentations } = require('@opentelemetry/auto-instrumentations-node');
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { metricsOnSignal, printer } = require('./spans.cjs');

new NodeSDK({
  spanProcessors: [new SimpleSpanProcessor(printer)],
  metricReaders: [metricsOnSignal()],
  instrumentations: [getNodeAutoInstrumentations()],
}).start();
