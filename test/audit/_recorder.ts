/** Two small node:http services that record every request they get, for the auditor's safety tests. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bodyBytes: number;
}

/** A recording server on port 0. */
export interface Recorder {
  base: string;
  seen: Seen[];
  /** The most requests in flight at once. */
  peak: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, recorder: Recorder) => void;

/** Starts a server that records each request, then lets `handle` answer it. */
export async function startRecorder(handle: Handler): Promise<Recorder> {
  let active = 0;
  const recorder: Recorder = { base: '', seen: [], peak: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    active++;
    recorder.peak = Math.max(recorder.peak, active);
    res.on('close', () => active--);
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      recorder.seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodyBytes,
      });
      handle(req, res, recorder);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  recorder.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  recorder.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return recorder;
}

/** Answers JSON with the spec's headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(JSON.stringify(body));
}
