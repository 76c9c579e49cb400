/**
 * Lingering close (RFC 9112 §9.6) for every Node host: a connection closed after an answer
 * given before the whole request body arrived (413, 401, 415…) is half-closed and drained for a
 * while, so that the client reads the answer instead of losing it to a reset.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a closing connection keeps reading what the client still sends. */
export const lingerMs = 5_000;
/** How many bytes it reads (and throws away) at most before it closes all the same. */
export const lingerBytes = 16 * 1024 * 1024;

const current = Symbol('api-conventions.request');
const destroySoon = Symbol('api-conventions.destroySoon');

type Lingering = Socket & {
  [current]?: IncomingMessage;
  [destroySoon]?: () => void;
  destroySoon(): void;
};

/**
 * Closes the connection of `req` with a lingering close when its response closes the connection
 * before the request's body has all arrived. Node ends such a response with `destroySoon()`,
 * which closes the socket as soon as the answer is written: with the client still sending, its
 * TCP stack then gets a reset and may drop the answer it has not read yet (Node's `http` client
 * reports EPIPE, `fetch` "other side closed"). Cheap enough for every request: a property set,
 * and the socket's `destroySoon` replaced once.
 */
export function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket as Lingering | null;
  if (socket === null) return;
  socket[current] = req;
  if (socket[destroySoon] === undefined) {
    socket[destroySoon] = socket.destroySoon;
    socket.destroySoon = closeSoon;
  }
}

const servers = new WeakSet<Server>();

/** {@link lingerOnClose} for every request of `server` (a server is set up once). */
export function lingerOnCloseOf(server: Server): void {
  if (servers.has(server)) return;
  servers.add(server);
  server.on('request', lingerOnClose);
}

function closeSoon(this: Lingering): void {
  const req = this[current];
  if (req === undefined || req.complete || this.destroyed) {
    this[destroySoon]!.call(this);
    return;
  }
  // The answer is written; FIN says nothing more comes, and what the client still sends is read
  // and thrown away (Node's parser keeps reading the body it was told to dump) until it has all
  // come, the client closes, or the time or the bytes run out.
  lingering.set(this, { until: Date.now() + lingerMs, bytes: this.bytesRead + lingerBytes });
  if (sweep === undefined) {
    sweep = setInterval(check, 25);
    sweep.unref();
  }
  const done = () => finish(this);
  req.removeAllListeners('data');
  req.once('end', done);
  req.once('error', done);
  this.once('end', done);
  this.once('close', () => lingering.delete(this));
  req.resume();
  this.end();
}

// One timer for every lingering connection, whatever their number: Node's parser reads the body
// without a 'data' event, so the bytes are counted on the socket.
const lingering = new Map<Lingering, { until: number; bytes: number }>();
let sweep: ReturnType<typeof setInterval> | undefined;

function check(): void {
  const now = Date.now();
  for (const [socket, bound] of lingering) {
    if (now >= bound.until || socket.bytesRead > bound.bytes) finish(socket);
  }
  if (lingering.size === 0) {
    clearInterval(sweep);
    sweep = undefined;
  }
}

function finish(socket: Lingering): void {
  if (!lingering.delete(socket)) return;
  // Never before the answer has left: destroy() would drop what is still buffered.
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}
