/**
 * telemetry() beside an HTTP instrumentation, in process through `api.handle`: the
 * request runs in the context `@opentelemetry/instrumentation-http` gives it (its SERVER span,
 * current, and `@opentelemetry/core`'s RPC metadata naming it), made with that package's own
 * helpers. Over HTTP with the real instrumentations in test/conformance/apm-agents.test.ts.
 */
import { type Context, context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { getRPCMetadata, RPCType, setRPCMetadata } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conventions } from '../../src/index.ts';
import { spanOf, type TelemetryOptions, telemetry } from '../../src/otel.ts';

beforeAll(() => {
  // The Node SDK's context manager, as a service registers it: each test passes its own provider.
  new NodeTracerProvider().register();
});
afterAll(() => {
  trace.disable();
  context.disable();
});

/** A service with telemetry, and a request served inside an instrumentation's server span. */
function instrumented(options: TelemetryOptions = {}) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const seen: (ReadableSpan | undefined)[] = [];
  const api = conventions({
    routes: {
      '/v1/books/:id': {
        GET: (ctx) => {
          seen.push(spanOf(ctx) as unknown as ReadableSpan | undefined);
          return { id: ctx.param('id') };
        },
      },
    },
    plugins: [telemetry({ tracerProvider, metrics: false, ...options })],
  });
  const send = (url: string, within?: Context) => {
    const request = () => api.handle({ method: 'GET', url, headers: new Headers() });
    return within === undefined ? request() : context.with(within, request);
  };
  /** What the HTTP instrumentation makes for a request: its span, current, and the metadata. */
  const incoming = () => {
    const span = tracerProvider
      .getTracer('@opentelemetry/instrumentation-http')
      .startSpan('GET', { kind: SpanKind.SERVER });
    const metadata = { type: RPCType.HTTP, span } as const;
    const ctx = setRPCMetadata(trace.setSpan(ROOT_CONTEXT, span), metadata);
    return { span, ctx };
  };
  return { exporter, send, incoming, seen };
}

describe('telemetry() beside an HTTP instrumentation', () => {
  it("names the instrumentation's SERVER span by route instead of starting a second one", async () => {
    const { exporter, send, incoming, seen } = instrumented();
    const { span, ctx } = incoming();
    const res = await send('/v1/books/emma', ctx);
    expect(res.status).toBe(200);
    // The library starts no span and leaves the instrumentation's open: the instrumentation ends it.
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(seen).toEqual([span]);
    // The instrumentation reads the route as it ends the span and records its histogram.
    expect(getRPCMetadata(ctx)?.route).toBe('/v1/books/:id');
    span.end();
    const [ended] = exporter.getFinishedSpans();
    expect(ended!.name).toBe('GET /v1/books/:id');
    expect(ended!.attributes).toMatchObject({
      'http.route': '/v1/books/:id',
      'http.response.status_code': 200,
      'api_conventions.auth.outcome': 'anonymous',
    });
  });

  it('keeps a route another instrumentation set when no route served the request', async () => {
    const { send, incoming } = instrumented();
    const { span, ctx } = incoming();
    getRPCMetadata(ctx)!.route = '/static';
    expect((await send('/static/app.js', ctx)).status).toBe(404);
    expect(getRPCMetadata(ctx)?.route).toBe('/static');
    span.end();
  });

  it('starts its own SERVER span for a second request in the same context', async () => {
    const { exporter, send, incoming } = instrumented();
    const { span, ctx } = incoming();
    await send('/v1/books/emma', ctx);
    await send('/v1/books/dune', ctx);
    const [own] = exporter.getFinishedSpans();
    expect(own!.kind).toBe(SpanKind.SERVER);
    expect(own!.instrumentationScope.name).toBe('api-conventions');
    expect(own!.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    span.end();
  });

  it('starts its own SERVER span, a child of the instrumentation span, with adoptServerSpan: false', async () => {
    const { exporter, send, incoming } = instrumented({ adoptServerSpan: false });
    const { span, ctx } = incoming();
    await send('/v1/books/emma', ctx);
    const [own] = exporter.getFinishedSpans();
    expect(own!.name).toBe('GET /v1/books/:id');
    expect(own!.instrumentationScope.name).toBe('api-conventions');
    expect(own!.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(getRPCMetadata(ctx)?.route).toBeUndefined();
    span.end();
  });

  it('starts its own SERVER span when no instrumentation is active', async () => {
    const { exporter, send } = instrumented();
    await send('/v1/books/emma');
    const [own] = exporter.getFinishedSpans();
    expect(own!.name).toBe('GET /v1/books/:id');
    expect(own!.instrumentationScope.name).toBe('api-conventions');
  });
});
