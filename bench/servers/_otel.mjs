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

/**
 * OpenTelemetry's HTTP instrumentation on the SDK, with the context manager it needs to make its
 * SERVER span the active one. It patches `http.Server.prototype.emit` when `http` is required, so
 * it is required here, once the hook is in place: the server's `import` shares that prototype.
 */
async function registerHttpInstrumentation() {
  const { registerSdk } = await import('../lib/otel.mjs');
  registerSdk(true);
  const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http');
  registerInstrumentations({ instrumentations: [new HttpInstrumentation()] });
  createRequire(import.meta.url)('node:http');
}

/** The SDK's floor (bench/lib/otel.mjs) as a plugin, on every request the stack receives. */
async function floorPlugin() {
  const { floorCalls, registerSdk } = await import('../lib/otel.mjs');
  registerSdk();
  const floor = floorCalls();
  const watched = Symbol('floor');
  return {
    name: 'floor',
    onReceive(ctx) {
      ctx.state[watched] = floor.start(ctx.method, ctx.path);
    },
    onResponse(ctx, status) {
      floor.end(ctx.state[watched], status, ctx.route?.pattern ?? 'unmatched');
    },
  };
}

/** What `fullStack()` takes for the telemetry the environment asks for. */
export async function otelOptions() {
  const mode = process.env.BENCH_OTEL;
  const first = [];
  if (mode === 'http' || mode === 'http-ours') await registerHttpInstrumentation();
  if (mode === 'floor') first.push(await floorPlugin());
  if (mode === 'noop' || mode === 'sdk' || mode === 'http-ours') {
    if (mode === 'sdk') (await import('../lib/otel.mjs')).registerSdk();
    const { telemetry } = await import('../../dist/otel.mjs');
    first.push(telemetry());
  }
  return { first, options: process.env.BENCH_IDS === '1' ? { requestIds: true } : {} };
}
