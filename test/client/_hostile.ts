/**
 * Hostile services of the tests' own, on real servers on port 0: each records every request it
 * receives (method, path, headers, body), so a test can say what the client sent where. A TLS one
 * too, with a certificate made for the test, and a `fetch` that trusts it.
 */
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { localCertificate } from '../_tls.ts';

/** One request a server received. */
export interface Received {
  readonly method: string;
  readonly target: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** A running recording server. */
export interface Recorder {
  /** `http://127.0.0.1:<port>` (or `https://localhost:<port>`). */
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** What a recorder answers: it may also write the response itself. */
export type Handler = (req: Received, res: ServerResponse) => unknown;

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

function recording(handler: Handler, received: Received[]) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const got: Received = {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      headers: req.headers,
      body: await bodyOf(req),
    };
    received.push(got);
    await handler(got, res);
  };
}

function running(
  server: ReturnType<typeof createHttp>,
  scheme: string,
  host: string,
  received: Received[],
): Promise<Recorder> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `${scheme}://${host}:${port}`,
        received,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A recording node:http server on port 0 of 127.0.0.1. */
export function startRecorder(handler: Handler): Promise<Recorder> {
  const received: Received[] = [];
  return running(createHttp(recording(handler, received)), 'http', '127.0.0.1', received);
}

/** A recording node:https server for `localhost`, and the certificate to trust. */
export async function startTlsRecorder(handler: Handler): Promise<Recorder & { ca: string }> {
  const made = await localCertificate();
  const received: Received[] = [];
  const server = createHttps(made, recording(handler, received));
  const recorder = await running(server as never, 'https', 'localhost', received);
  return { ...recorder, ca: made.cert };
}

/** A `fetch` that trusts `ca` for https (through node:https) and is the global one for http. */
export function fetchTrusting(ca: string): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.protocol !== 'https:') return fetch(input, init);
    const headers = Object.fromEntries(new Headers(init.headers));
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(url, { method: init.method ?? 'GET', headers, ca }, (res) => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of [value ?? []].flat()) out.append(name, v);
        }
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304;
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), {
            status,
            headers: out,
          }),
        );
      });
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
  };
}

/** Answers `body` as JSON with `headers`. */
export function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
