/**
 * The auditor's HTTP client: a request budget, bounded concurrency, a timeout per request,
 * redirects never followed, and the caller's headers sent only to the base origin.
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

  /** Whether `url` is on the base origin, where the caller's headers may go. */
  isOwn(url: URL): boolean {
    return url.origin === this.base.origin;
  }

  /**
   * Sends one request to `target` (a path under the base, or an absolute URL); undefined once
   * the budget is spent. Never follows a redirect, so never leaves the base origin by one.
   */
  async send(method: string, target: string, init: SendInit = {}): Promise<Exchange | undefined> {
    if (this.spent >= this.settings.maxRequests) return undefined;
    this.spent++;
    const url = new URL(target, this.base);
    const headers = new Headers();
    if (init.credentials !== false && this.isOwn(url)) {
      for (const [name, value] of this.settings.headers) headers.set(name, value);
    }
    for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
    const shownTarget = this.isOwn(url) ? `${url.pathname}${url.search}` : url.href;
    const request = showTarget(method, shownTarget);
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
