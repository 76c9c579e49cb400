/**
 * telemetry()'s options and naming rules, in process through `api.handle` with
 * the SDK's in-memory exporter given as the tracer provider; on every host over HTTP in
 * test/conformance/telemetry.test.ts.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { conventions, type Plugin } from '../../src/index.ts';
import { spanOf, type TelemetryOptions, telemetry } from '../../src/otel.ts';

const routes = { '/v1/books/:id': { GET: () => ({ ok: true }) } };

/** A service with telemetry to an in-memory exporter, and what it exported. */
function traced(options: TelemetryOptions = {}, plugins: Plugin[] = []) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const api = conventions({
    routes,
    plugins: [telemetry({ tracerProvider, metrics: false, ...options }), ...plugins],
  });
  const send = async (method: string, url: string, host = 'api.example.com:8443') => {
    await api.handle({ method, url, headers: new Headers({ host }) });
    return exporter.getFinishedSpans().at(-1)!;
  };
  return { send };
}

describe('telemetry()', () => {
  it('names unmatched requests by their method alone, or by unmatchedRoute', async () => {
    const plain = await traced().send('GET', '/v1/nowhere');
    expect(plain.name).toBe('GET');
    expect(plain.attributes['http.route']).toBeUndefined();
    const named = await traced({ unmatchedRoute: '(unmatched)' }).send('GET', '/v1/nowhere');
    expect(named.name).toBe('GET (unmatched)');
    expect(named.attributes['http.route']).toBe('(unmatched)');
  });

  it('names a method the conventions do not know HTTP, _OTHER with the original kept', async () => {
    const span = await traced().send('PURGE', '/v1/books/1');
    // No route serves PURGE (405), so the span has no route either.
    expect(span.name).toBe('HTTP');
    expect(span.attributes['http.request.method']).toBe('_OTHER');
    expect(span.attributes['http.request.method_original']).toBe('PURGE');
  });

  it('reads server.address and server.port from Host', async () => {
    const span = await traced().send('GET', '/v1/books/1');
    expect(span.attributes['server.address']).toBe('api.example.com');
    expect(span.attributes['server.port']).toBe(8443);
  });

  it('reads each request its own Host, one after another (semantic conventions, server.*)', async () => {
    const service = traced();
    const cases = [
      ['api.example.com:8443', 'api.example.com', 8443],
      ['[::1]:8080', '[::1]', 8080],
      ['books.example.org', 'books.example.org', undefined],
      ['api.example.com:8443', 'api.example.com', 8443],
    ] as const;
    for (const [host, address, port] of cases) {
      const span = await service.send('GET', '/v1/books/1', host);
      expect(span.attributes['server.address']).toBe(address);
      expect(span.attributes['server.port']).toBe(port);
    }
  });

  it('puts the subject on the span as user.id only with recordSubject', async () => {
    const identify: Plugin = {
      name: 'identify',
      allowsAnonymous: () => true,
      authenticate(ctx) {
        ctx.identity = { subject: 'alice', scopes: new Set(), via: 'test' };
        spanOf(ctx)?.addEvent('identified');
      },
    };
    const without = await traced({}, [identify]).send('GET', '/v1/books/1');
    expect(without.attributes['user.id']).toBeUndefined();
    expect(without.attributes['api_conventions.auth.outcome']).toBe('authenticated');
    expect(without.attributes['api_conventions.auth.via']).toBe('test');
    expect(without.events.map((event) => event.name)).toEqual(['identified']);
    const withSubject = await traced({ recordSubject: true }, [identify]).send(
      'GET',
      '/v1/books/1',
    );
    expect(withSubject.attributes['user.id']).toBe('alice');
  });

  it.each([
    [{ tracer: 1 }, /unknown option `tracer`/],
    [{ unmatchedRoute: '' }, /unmatchedRoute must be a non-empty string/],
    [{ recordSubject: 'yes' }, /recordSubject must be true or false/],
    [{ metrics: 0 }, /metrics must be true or false/],
    [{ adoptServerSpan: 'no' }, /adoptServerSpan must be true or false/],
  ])('refuses %o at creation', (options, message) => {
    expect(() => telemetry(options as TelemetryOptions)).toThrow(message);
  });
});
