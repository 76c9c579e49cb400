/** A raw HTTP/1.1 exchange over a socket, for requests `fetch` will not send as they are. */
import { connect } from 'node:net';

/** The parsed answer of {@link rawRequest}. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` (the whole request text, CRLF line ends) to 127.0.0.1:`port` and reads one
 * response. Stops after `timeoutMs` so a test never hangs. `from` is the local address to send
 * from (another loopback address is another client).
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  timeoutMs = 5000,
  from?: string,
): Promise<RawResponse> {
  // RFC 9110 §9.3.2: the answer to HEAD has no body, whatever its Content-Length says.
  const head = request.toString().startsWith('HEAD ');
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    const tryParse = (): RawResponse | undefined => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = text.slice(end + 4);
      const length = headers['content-length'];
      if (!head && length !== undefined && Buffer.byteLength(body) < Number(length))
        return undefined;
      return { status: Number(statusLine?.split(' ')[1]), headers, body };
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const parsed = tryParse();
      if (parsed && parsed.headers['content-length'] !== undefined) {
        clearTimeout(timer);
        socket.destroy();
        resolve(parsed);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const parsed = tryParse();
      if (parsed) resolve(parsed);
      else reject(new Error('connection closed before a response'));
    });
    socket.write(request);
  });
}

/** What {@link rawUntilClose} saw: everything the server sent, and whether it closed. */
export interface RawExchange {
  /** The first response, parsed, if a whole one came. */
  response: RawResponse | undefined;
  /** Everything received, as text. */
  text: string;
  /** Whether the server closed the connection before `timeoutMs`. */
  closed: boolean;
}

/**
 * Sends `request` and keeps the connection open until the server closes it or `timeoutMs`
 * passes: for answers whose point is that the connection ends (408, parser errors). `from` is
 * the local address to send from.
 */
export function rawUntilClose(
  port: number,
  request: string | Buffer,
  timeoutMs = 5000,
  from?: string,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
    const chunks: Buffer[] = [];
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ response: parseResponse(text), text, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.write(request);
  });
}

/** The first response in `text`, with a body as long as its Content-Length says, if whole. */
export function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bytes = Buffer.from(text.slice(end + 4));
  if (bytes.byteLength < length) return undefined;
  const body = bytes.subarray(0, length).toString('utf8');
  return { status: Number(statusLine?.split(' ')[1]), headers, body };
}
