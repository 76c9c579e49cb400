/**
 * The auditor's HTTP client: a request budget, bounded concurrency, a timeout per request,
 * redirects never followed, and nothing sent off the base origin. Every target is resolved to a
 * URL once, here, and its origin compared after resolution: a path is always a path on the base
 * origin (`//host/x` included), and a URL read from a response or a document (a `Location`, RFC
 * 8414 metadata) is resolved by {@link AuditClient.reference} and sent as that URL, never as a
 * string to be resolved again. The requests themselves go over node:http (transport.ts), with
 * exactly the headers chosen here.
 */
import { Transport } from './transport.ts';

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
  /** Set when the answer came before the request's body was all sent. */
  early?: boolean;
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
const bodyCap = 1 << 20;

/** Shows a target in findings, shortening very long ones. */
function showTarget(method: string, target: string): string {
  const shown =
    target.length > 80 ? `${target.slice(0, 60)}… (${target.length} characters)` : target;
  return `${method} ${shown}`;
}

/** Sends the audit's requests. */
export class AuditClient {
  /** Requests sent so far. */
  spent = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly transport: Transport;

  constructor(
    readonly base: URL,
    private readonly settings: {
      headers: readonly [string, string][];
      maxRequests: number;
      concurrency: number;
      timeoutMs: number;
    },
  ) {
    this.transport = new Transport(settings.timeoutMs, bodyCap);
  }

  /** Closes the audit's connections. */
  close(): void {
    this.transport.close();
  }

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
    // Every request says it takes anything (spec 4.5: JSON is then the default), and nothing else
    // is added: no Cache-Control, no Accept-Encoding the auditor did not choose.
    const headers: Record<string, string> = {
      accept: '*/*',
      'user-agent': 'api-conventions-audit',
    };
    if (init.credentials !== false) {
      for (const [name, value] of this.settings.headers) headers[name] = value;
    }
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    const request = showTarget(method, `${url.pathname}${url.search}`);
    await this.acquire();
    try {
      const answer = await this.transport.exchange(method, url, headers, init.body);
      return { method, request, ...answer };
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
