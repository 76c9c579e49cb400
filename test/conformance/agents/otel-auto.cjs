// The Node SDK with every auto-instrumentation, as most services start OpenTelemetry.
'use strict';
const { getNodeAutoInstrumentations } = require('@opentelemetry/auto-instrumentations-node');
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { printer } = require('./spans.cjs');

new NodeSDK({
  spanProcessors: [new SimpleSpanProcessor(printer)],
  instrumentations: [getNodeAutoInstrumentations()],
}).start();
