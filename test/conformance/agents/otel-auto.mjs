// The Node SDK with every auto-instrumentation in an ES module app (`node --import ./telemetry.mjs
// app.mjs`), as docs/observability.md shows: OpenTelemetry's hook sees the app's `import`s.
import { register } from 'node:module';
import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import spans from './spans.cjs';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

new NodeSDK({
  spanProcessors: [new SimpleSpanProcessor(spans.printer)],
  metricReaders: [spans.metricsOnSignal()],
  instrumentations: [getNodeAutoInstrumentations()],
}).start();
