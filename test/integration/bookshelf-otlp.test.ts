/**
 * The bookshelf started as docs/observability.md starts it, with OTEL_EXPORTER_OTLP_ENDPOINT set
 *: it starts, serves, and exports its spans over OTLP/HTTP to the endpoint, here
 * a local receiver of this test on port 0; what is still batched is exported when it stops.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One span of an OTLP/JSON export, as far as the test reads it. */
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpSpan['attributes'] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

describe('the bookshelf with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let receiver: Server;
  let child: ChildProcess;
  let base = '';
  let stdout = '';
  let stderr = '';
  const received: { path: string; type: string; body: OtlpExport }[] = [];
  let exported: () => void = () => {};
  const firstExport = new Promise<void>((resolve) => {
    exported = resolve;
  });

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          type: req.headers['content-type'] ?? '',
          body: JSON.parse(body) as OtlpExport,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        exported();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/bookshelf/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_SERVICE_NAME: 'bookshelf-under-test',
      },
      stdio: 'pipe',
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    base = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const m = /listening on (http:\/\/\S+) \(node\)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  }, 30_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await new Promise((done) => receiver.close(done));
  });

  it('starts, says where its traces go, and exports a span per request named by route when it stops', async () => {
    expect(stdout).toContain('traces to http://127.0.0.1:');
    const id = 'otlp-test-1';
    const res = await fetch(`${base}/v1/books/dune`, { headers: { 'x-request-id': id } });
    await res.arrayBuffer();
    expect(res.headers.get('x-request-id')).toBe(id);
    // Stopping exports what is still batched.
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    await firstExport;
    expect(received[0]!.path).toBe('/v1/traces');
    expect(received[0]!.type).toMatch(/^application\/json/);
    const resource = received[0]!.body.resourceSpans[0]!.resource.attributes;
    expect(resource).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'bookshelf-under-test' },
    });
    const spans = received.flatMap((r) =>
      r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
    );
    const span = spans.find((s) =>
      s.attributes.some(
        (a) => a.key === 'api_conventions.request_id' && a.value.stringValue === id,
      ),
    );
    expect(span?.name).toBe('GET /v1/books/:id');
    // OTLP's SPAN_KIND_SERVER.
    expect(span?.kind).toBe(2);
    expect(span?.attributes).toContainEqual({
      key: 'http.route',
      value: { stringValue: '/v1/books/:id' },
    });
  }, 30_000);
});
