/**
 * A counting proxy of the tests' own: it forwards every request to the bookshelf unchanged and
 * records what went by (method, path, status, the form of each token request), so a test can
 * say what the client sent and what the server answered.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One exchange the proxy saw. */
export interface Seen {
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly status: number;
  /** The request's headers, lower-case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request body, as text. */
  readonly body: string;
}

/** A running proxy. */
export interface CountingProxy {
  /** Its origin: `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every exchange so far, oldest first. */
  readonly seen: Seen[];
  /** The exchanges after `from` (an index into `seen`) that match. */
  since(from: number, match?: (s: Seen) => boolean): Seen[];
  close(): Promise<void>;
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'content-length',
]);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy on port 0 of 127.0.0.1 in front of `target` (an origin). */
export function startProxy(target: () => string): Promise<CountingProxy> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!hopByHop.has(name) && typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${target()}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    seen.push({
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      status: answer.status,
      headers,
      body: body.toString('utf8'),
    });
    const out: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (hopByHop.has(name) || name === 'content-encoding') return;
      out[name] = name === 'link' ? answer.headers.get('link')!.split(/,\s*(?=<)/) : value;
    });
    res.writeHead(answer.status, out);
    res.end(bytes);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        since: (from, match = () => true) => seen.slice(from).filter(match),
        close: () => new Promise((done) => server.close(() => done()).closeAllConnections()),
      });
    });
  });
}

/**
 * A proxy in front of `served` for the tests of the enclosing block: started before them,
 * closed after them; read it inside a test.
 */
export function proxyFor(served: { url(path: string): string }): CountingProxy {
  let proxy: CountingProxy | undefined;
  beforeAll(async () => {
    proxy = await startProxy(() => served.url(''));
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const started = () => {
    if (proxy === undefined) throw new Error('The proxy starts before the tests of its block.');
    return proxy;
  };
  return {
    get url() {
      return started().url;
    },
    get seen() {
      return started().seen;
    },
    since: (from, match) => started().since(from, match),
    close: () => started().close(),
  };
}
