/** The serialize phase: a response value into bytes, by a registry of serializers keyed by media type. */
import { stringifyResponseJson } from '../http/json.ts';
import type { OutgoingResponse, SentResponse } from '../http/response.ts';
import { type RequestContext, runOf } from '../kernel/context.ts';
import type { Serializer } from '../kernel/plugin.ts';
import type { TextReuse } from './reuse.ts';

/**
 * The JSON serializer: the default entry of every registry (spec 1, 4.6).
 *
 * @category Plugins and pipeline
 */
export const jsonSerializer: Serializer = (value) => stringifyResponseJson(value) ?? 'null';

/**
 * Serializers by media type, compiled once; `+json` and `+xml` types use their base type's.
 *
 * @category Plugins and pipeline
 */
export class SerializerRegistry {
  private readonly byType = new Map<string, Serializer>([['application/json', jsonSerializer]]);
  private json: Serializer = jsonSerializer;
  /** The kept texts of versioned reads; `undefined` where a transform hook is not the library's own. */
  private readonly reuse: TextReuse | undefined;

  constructor(reuse?: TextReuse) {
    this.reuse = reuse;
  }

  /** Adds a serializer; a media type served twice is a `TypeError` naming both owners. */
  add(type: string, serializer: Serializer, owner: string): void {
    const key = type.toLowerCase();
    if (typeof serializer !== 'function') {
      throw new TypeError(`Plugin "${owner}": the serializer for ${type} must be a function.`);
    }
    if (this.byType.has(key) && key !== 'application/json') {
      throw new TypeError(`Plugin "${owner}": another plugin already serializes ${type}.`);
    }
    this.byType.set(key, serializer);
    if (key === 'application/json') this.json = serializer;
  }

  /** The serializer of a media type; a vendor type (RFC 6839 §3) uses its suffix's base type. */
  find(type: string): Serializer | undefined {
    const exact = this.byType.get(type);
    if (exact !== undefined) return exact;
    const plus = type.lastIndexOf('+');
    return plus === -1 ? undefined : this.byType.get(`application/${type.slice(plus + 1)}`);
  }

  /**
   * Serializes a response: a string or bytes whose `Content-Type` is set go as they are; bytes
   * without one as `application/octet-stream`; any other value by the serializer of its `type`
   * (JSON when none), with that media type as its `Content-Type`. 204 and 304 never carry a body.
   * `given` is the handler's value the body was shaped from: for it, a 200 the built-in JSON
   * writer wrote before under the request's representation is sent again ({@link TextReuse}).
   */
  serialize(ctx: RequestContext, out: OutgoingResponse, given?: unknown): SentResponse {
    const { status, headers, body } = out;
    if (body === undefined || status === 204 || status === 304) {
      return { status, headers, body: null };
    }
    const { record } = headers;
    if (typeof body === 'string' || body instanceof Uint8Array) {
      if (record['content-type'] !== undefined) return { status, headers, body };
      if (body instanceof Uint8Array) {
        headers.set('content-type', 'application/octet-stream');
        return { status, headers, body };
      }
    }
    const type = out.type;
    const serializer = type === undefined ? this.json : this.find(type);
    if (serializer === undefined) {
      throw new TypeError(`No serializer is registered for ${type}; a plugin must provide it.`);
    }
    const bytes = this.write(serializer, ctx, status, body, given);
    // The default, JSON, has a constant Content-Type that needs no check.
    if (type === undefined) record['content-type'] ??= 'application/json';
    else if (record['content-type'] === undefined) headers.set('content-type', type);
    return { status, headers, body: bytes };
  }

  /** What `serializer` writes of `body`, or the built-in JSON writer's kept text for `given`. */
  private write(
    serializer: Serializer,
    ctx: RequestContext,
    status: number,
    body: unknown,
    given: unknown,
  ): string | Uint8Array {
    const reuse = this.reuse;
    if (reuse === undefined || status !== 200 || serializer !== jsonSerializer) {
      return serializer(body, ctx);
    }
    const name = runOf(ctx).representation;
    if (name === undefined) return serializer(body, ctx);
    const kept = reuse.find(name, given);
    if (kept !== undefined) return kept;
    const text = serializer(body, ctx);
    reuse.keep(name, given, text);
    return text;
  }
}
