/**
 * Request ids: a plugin, like every feature, built on the observation hooks. An
 * incoming id that is bounded and well-formed is kept, any other is replaced by a new one; the id
 * is echoed on every response, kept on `ctx.state.requestId` (where telemetry puts it on the span)
 * and added to every line the request logs.
 */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { Plugin } from '../kernel/plugin.ts';
import type { LogFields } from '../kernel/request-logger.ts';

declare module '../kernel/context.ts' {
  interface RequestState {
    /** The request's id (`requestIds()`): the client's `X-Request-Id` when well-formed, else a new one. */
    requestId?: string;
  }
}

/**
 * Options of the built-in request ids: the `requestIds` option of {@link ConventionsOptions}.
 *
 * @category Observability
 */
export interface RequestIdsOptions {
  /** The request and response header that carries the id. @default 'x-request-id' */
  header?: string;
  /**
   * Whether an incoming id is kept (when well-formed: at most `maxLength` characters of letters,
   * digits and `-._:+/=@`). A service that faces clients it does not trust to name their
   * requests sets `false`: every request then gets a new id. @default true
   */
  trustIncoming?: boolean;
  /** The longest incoming id kept, in characters (1 to 256). @default 128 */
  maxLength?: number;
}

// RFC 9110 §5.6.2 tokens minus the characters a log line or a header list would misread, plus
// `/`, `=`, `:` and `@`, which ids from tracing systems and load balancers use.
const wellFormed = /^[A-Za-z0-9._:+/=@-]+$/;
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A new id: a random UUID (version 4) from the platform's CSPRNG, on every runtime. */
const newId = (): string => globalThis.crypto.randomUUID();

/**
 * Gives every request an id, kept from the client when well-formed, echoed on the response.
 * Made by {@link requestIds}.
 *
 * @category Observability
 */
export class RequestIdsPlugin implements Plugin {
  readonly name = 'request-ids';
  private readonly header: string;
  private readonly trusted: boolean;
  private readonly maxLength: number;

  constructor(options: RequestIdsOptions = {}) {
    assertKnownKeys('requestIds()', options, ['header', 'trustIncoming', 'maxLength']);
    const header = options.header ?? 'x-request-id';
    if (typeof header !== 'string' || !headerName.test(header)) {
      throw new TypeError(
        `requestIds(): header must be a header name such as 'x-request-id'; got ${String(header)}.`,
      );
    }
    if (options.trustIncoming !== undefined && typeof options.trustIncoming !== 'boolean') {
      throw new TypeError('requestIds(): trustIncoming must be true or false.');
    }
    this.header = header.toLowerCase();
    this.trusted = options.trustIncoming ?? true;
    this.maxLength = assertInteger('requestIds(): maxLength', options.maxLength ?? 128, 1, 256);
  }

  /** The id of `ctx`: the client's when kept, else a new one. */
  private idOf(ctx: RequestContext): string {
    if (!this.trusted) return newId();
    const given = ctx.headers.get(this.header);
    return typeof given === 'string' &&
      given.length <= this.maxLength &&
      given.length > 0 &&
      wellFormed.test(given)
      ? given
      : newId();
  }

  /** As the request is received, before any other hook: its id, on the state and the response. */
  onReceive(ctx: RequestContext): void {
    const id = this.idOf(ctx);
    ctx.state.requestId = id;
    // The name was checked at start-up and the id is well-formed (or a UUID): written straight
    // into the record, the checks of HeaderBag.set would find nothing to refuse.
    ctx.responseHeaders.record[this.header] = id;
  }

  /** The id on every line the request logs. */
  logFields(ctx: RequestContext): LogFields | undefined {
    const id = ctx.state.requestId;
    return id === undefined ? undefined : { requestId: id };
  }
}

/**
 * Request ids: an incoming `X-Request-Id` that is bounded and well-formed is kept, otherwise a new
 * one (a random UUID) is made; it is echoed on every response (errors, 404s and the app's own
 * routes included), kept on `ctx.state.requestId`, put on the span by `telemetry()` and on every
 * line the request logs.
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 *
 * // The plugin behind the `requestIds` option: X-Request-Id kept or made, echoed, logged.
 * const api = conventions({ requestIds: true });
 * ```
 *
 * @category Observability
 */
export function requestIds(options?: RequestIdsOptions): RequestIdsPlugin {
  return new RequestIdsPlugin(options);
}
