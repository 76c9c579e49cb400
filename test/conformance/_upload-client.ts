/**
 * Posts a large body with Node's `http` client or `fetch` (undici) from a process of its own,
 * `tries` times, and prints what each try saw (the status, or the error that stood for it) as a
 * JSON list. A process of its own: with the server in the same event loop, the client always
 * reads the answer before the server's close can reset it, so a missing lingering close would
 * go unseen.
 *
 * `node --import tsx _upload-client.ts <http|chunked|fetch> <url> <authorization|-> <type> <bytes>
 * <tries>` (`-` sends no `Authorization`; `chunked`: Node's `http` client without
 * `Content-Length`).
 */
import { request } from 'node:http';

type Outcome = number | string;

const [kind, url, authorization, type, bytes, count] = process.argv.slice(2) as [
  'http' | 'chunked' | 'fetch',
  string,
  string,
  string,
  string,
  string,
];
const size = Number(bytes);
const body = Buffer.alloc(size, 'a');
const headers: Record<string, string> = { 'content-type': type };
if (authorization !== '-') headers.authorization = authorization;

function viaHttp(chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const length: Record<string, string> = chunked ? {} : { 'content-length': String(size) };
    const req = request(url, { method: 'POST', headers: { ...headers, ...length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (e: Error & { code?: string }) => resolve(`response ${e.code ?? e.message}`));
    });
    req.on('error', (e: Error & { code?: string }) => resolve(e.code ?? e.message));
    if (chunked) {
      // Written in two parts, so the body goes chunked and only reading it tells its size.
      req.write(body.subarray(0, size >> 1));
      req.end(body.subarray(size >> 1));
    } else req.end(body);
  });
}

async function viaFetch(): Promise<Outcome> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    await res.arrayBuffer();
    return res.status;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (e as Error).message;
  }
}

const seen: Outcome[] = [];
for (let i = 0; i < Number(count); i++) {
  seen.push(await (kind === 'fetch' ? viaFetch() : viaHttp(kind === 'chunked')));
}
process.stdout.write(JSON.stringify(seen));
