/**
 * The auditor's HTTP client: a request budget, bounded concurrency, a timeout per request,
 * redirects never followed, and nothing sent off the base origin. Every target is resolved to a
 * URL once, here, and its origin compared after resolution: a path is always a path on the base
 * origin (`//host/x` included), and a URL read from a response or a document (a `Location`, RFC
 * 8414 metadata) is resolved by {@link AuditClient.reference} and sent as that URL, never as a
 * string to be resolved again.
 */

/** One request and what came back; `status` 0 when no answer came (`error` says why). */
export interface Exchange {
  method: string;
  /** The request as shown in findings: method and target (`GET /v1/books`). */
  request: string;
  status: number;
  headers: Headers;
  /** The body as text, up to {@link bodyCap} bytes. */
  body: string;
  error?: string;
  /** Set when the request was not sent because its URL is on another origin than the base. */
  offOrigin?: string;
}

/** What a request may add to the defaults. */
export interface SendInit {
  headers?: Record<string, string>;
  body?: string;
  /** Leave out the caller's `--header` headers (an anonymous request). @default true */
  credentials?: boolean;
}

/** The most body read from one response: enough for every check, never a whole download. */
export const bodyCap = 1 << 20;

/** Shows a target in findings, shortening very long ones. */
export function showTarget(method: string, target: string): string {
  const shown =
    target.length > 80 ? `${target.slice(0, 60)}… (${target.length} characters)` : target;
  return `${method} ${shown}`;
}

async function readCapped(res: Response, method: string): Promise<string> {
  if (!res.body || method === 'HEAD') return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < bodyCap) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, bodyCap));
}

/** Sends the audit's requests. */
export class AuditClient {
  /** Requests sent so far. */
  spent = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly base: URL,
    private readonly settings: {
      headers: readonly [string, string][];
      maxRequests: number;
      concurrency: number;
      timeoutMs: number;
    },
  ) {}

  /** Requests left in the budget. */
  get left(): number {
    return this.settings.maxRequests - this.spent;
  }

  /** URLs the audit was given or read but did not send to, because they are on another origin. */
  readonly refused: string[] = [];

  /** Whether `url` is on the base origin, the only one the audit sends to. */
  isOwn(url: URL): boolean {
    return url.origin === this.base.origin;
  }

  /**
   * The URL of a path on the base origin. The path is appended to the origin, never resolved as
   * a reference: `//other/x` and `/.//other/x` stay paths of the base, as a server reads them.
   */
  resolve(target: string | URL): URL {
    if (target instanceof URL) return target;
    return new URL(`${this.base.origin}${target.startsWith('/') ? '' : '/'}${target}`);
  }

  /**
   * Resolves a URI reference the service sent (`Location`, metadata) against the URL it came
   * from (RFC 3986 §5), once; undefined when it is not a valid http(s) URL.
   */
  reference(value: string, against: URL = this.base): URL | undefined {
    try {
      const url = new URL(value, against);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Sends one request to `target` (a path on the base origin, or a URL from
   * {@link AuditClient.reference}); undefined once the budget is spent. A URL on another origin
   * is never sent: the exchange says so (`offOrigin`), and the URL is kept in `refused`. Never
   * follows a redirect, so never leaves the base origin by one.
   */
  async send(
    method: string,
    target: string | URL,
    init: SendInit = {},
  ): Promise<Exchange | undefined> {
    const url = this.resolve(target);
    if (!this.isOwn(url)) {
      this.refused.push(url.href);
      const error = `not sent: ${url.href} is not on the base origin ${this.base.origin}`;
      return {
        method,
        request: showTarget(method, url.href),
        status: 0,
        headers: new Headers(),
        body: '',
        error,
        offOrigin: url.href,
      };
    }
    if (this.spent >= this.settings.maxRequests) return undefined;
    this.spent++;
    const headers = new Headers();
    if (init.credentials !== false) {
      for (const [name, value] of this.settings.headers) headers.set(name, value);
    }
    for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
    const request = showTarget(method, `${url.pathname}${url.search}`);
    await this.acquire();
    try {
      const res = await fetch(url, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
      const body = await readCapped(res, method);
      return { method, request, status: res.status, headers: res.headers, body };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const text = (error as Error).name === 'TimeoutError' ? 'timed out' : String(cause ?? error);
      return { method, request, status: 0, headers: new Headers(), body: '', error: text };
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.settings.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
