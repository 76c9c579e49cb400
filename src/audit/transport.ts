/**
 * One HTTP exchange over node:http(s), with exactly the headers the auditor chose. The platform's
 * `fetch` adds headers of its own (`Cache-Control: no-cache` on a conditional request, which makes
 * Express skip its 304; `Accept-Encoding`, `Sec-Fetch-Mode`), refuses some methods (TRACE), and
 * loses the answer of a server that replies 413 and closes before an upload ends (EPIPE). Here
 * the upload goes in chunks and stops when the answer arrives, and the answer is read even when
 * the server then closes the connection.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What came back: `status` 0 when no answer came, with `error` saying why. */
interface Answer {
  status: number;
  headers: Headers;
  body: string;
  error?: string;
  /** Set when the answer came before the request's body was all sent: the server did not read it. */
  early?: boolean;
}

/** How long an answer may still arrive after the upload broke (EPIPE, ECONNRESET). */
const lateAnswerMs = 50;

/** How much of a body is uploaded at a time, so that an early answer stops the upload. */
const uploadChunk = 64 * 1024;

/** The connections of one audit: kept alive between its requests, closed when it ends. */
export class Transport {
  private readonly http = new HttpAgent({ keepAlive: true });
  private readonly https = new HttpsAgent({ keepAlive: true });

  constructor(
    private readonly timeoutMs: number,
    private readonly bodyCap: number,
  ) {}

  /** Closes every connection the audit opened. */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }

  /** Sends one request and reads its answer (up to the body cap); never rejects. */
  exchange(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Answer> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const payload = body === undefined ? undefined : Buffer.from(body);
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<Answer>((resolve) => {
      let settled = false;
      let answered = false;
      const settle = (answer: Answer) => {
        if (settled) return;
        settled = true;
        resolve(answer);
      };
      const failed = (error: unknown) =>
        settle({ status: 0, headers: new Headers(), body: '', error: describe(error, signal) });
      let req: ReturnType<typeof httpRequest>;
      try {
        req = send(url, {
          method,
          headers: {
            ...headers,
            ...(payload ? { 'content-length': String(payload.byteLength) } : {}),
          },
          agent: secure ? this.https : this.http,
          signal,
        });
      } catch (error) {
        // A header value Node refuses to send, a malformed URL: no request, no crash.
        return failed(error);
      }
      req.on('response', (res) => {
        answered = true;
        const early = payload !== undefined && !req.writableFinished;
        this.read(res, method, signal).then((answer) => {
          settle(early && answer.status !== 0 ? { ...answer, early } : answer);
          // An upload cut short leaves the connection unusable: end it.
          if (!req.writableFinished) req.destroy();
        });
      });
      req.on('error', (error) => {
        // After the answer arrived, a broken upload (EPIPE, ECONNRESET) changes nothing. Before
        // it, the answer may still be on its way through the parser (a server that answers, then
        // closes on an upload it did not read): it is given a moment to arrive and be judged.
        if (answered) return;
        const late = setTimeout(() => {
          if (!answered) failed(error);
        }, lateAnswerMs);
        late.unref();
      });
      if (!payload) {
        req.end();
        return;
      }
      let offset = 0;
      const upload = () => {
        while (offset < payload.byteLength && !answered && !req.destroyed) {
          const chunk = payload.subarray(offset, offset + uploadChunk);
          offset += chunk.byteLength;
          if (offset >= payload.byteLength) {
            req.end(chunk);
            return;
          }
          if (!req.write(chunk)) {
            req.once('drain', upload);
            return;
          }
        }
      };
      upload();
    });
  }

  /** Reads an answer's body up to the cap; what arrived before a reset or the cap is kept. */
  private read(res: IncomingMessage, method: string, signal: AbortSignal): Promise<Answer> {
    const headers = new Headers();
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
      try {
        headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      } catch {
        // A header value the Fetch standard refuses: left out, like a browser would.
      }
    }
    const status = res.statusCode ?? 0;
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (error?: unknown) => {
        if (done) return;
        done = true;
        if (error !== undefined && signal.aborted) {
          // The timeout fell while the body was still coming.
          resolve({ status: 0, headers: new Headers(), body: '', error: describe(error, signal) });
          return;
        }
        const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, this.bodyCap));
        resolve({ status, headers, body: method === 'HEAD' ? '' : text });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size >= this.bodyCap) {
          finish();
          res.destroy();
        }
      });
      res.on('end', () => finish());
      res.on('error', (error) => finish(error));
      res.on('close', () => finish());
    });
  }
}

/** Why no answer came, in a few words: `timed out`, `ECONNREFUSED`, `EPIPE`. */
function describe(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String((error as Error)?.message ?? error);
}
