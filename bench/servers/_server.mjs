/**
 * What every bench server shares: which port to listen on, what to answer, how to announce it,
 * and when to stop.
 */
import http from 'node:http';
import { payloadKinds } from './_payload.mjs';

/** Only loopback is ever used: the bench must not be reachable from elsewhere. */
export const HOST = '127.0.0.1';

/** `PORT` from the environment, or 0 to let the OS pick a free port (the harness does that). */
export const PORT = Number.parseInt(process.env.PORT ?? '0', 10) || 0;

const kind = process.env.PAYLOAD ?? 'books';
if (!Object.hasOwn(payloadKinds, kind)) {
  throw new TypeError(
    `PAYLOAD must be one of ${Object.keys(payloadKinds).join(', ')} (the harness sets it), got "${kind}"`,
  );
}

/** The body for `GET /v1/books`: the payload kind named by `PAYLOAD` (the harness sets it), `books` when unset. */
export const payload = payloadKinds[kind]();

/**
 * Prints the `ready <port>` line the harness waits for before it sends any request, with
 * `features=a,b` when the server says which features it switched on (our full stacks).
 *
 * When started by the harness, stdin is a pipe held by the harness: once it closes (the harness
 * exited, even by SIGKILL) the server exits too, so no server is ever left behind.
 */
export function ready(port, features) {
  const on = features === undefined ? '' : ` features=${features.join(',')}`;
  process.stdout.write(`ready ${port}${on}\n`);
  if (!process.stdin.isTTY) {
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => process.exit(0));
}

/**
 * Bare node:http answering `GET /v1/books` with `JSON.stringify(value)`, serialized on every
 * request (never a cached string: the "ours" side serializes too), 404 otherwise; it announces
 * itself with `ready` once listening. The ceiling the bare targets measure.
 */
export function listenBare(value) {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/books') {
      const body = JSON.stringify(value);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-length': 0 });
    res.end();
  });
  server.listen(PORT, HOST, () => ready(server.address().port));
}
