/** Opaque, tamper-evident paging cursors: base64url JSON of a position, sealed with HMAC-SHA-256. */
import { fromBase64Url, toBase64Url } from '../internal/base64url.ts';
import { equalBytes, type HmacKey, hmacKey, hmacSha256 } from '../internal/hmac.ts';

/**
 * The sort-key values a cursor may carry: what a row's sort columns hold.
 *
 * @category Payloads
 */
export type CursorValue = string | number | boolean | null | Date;

/** A decoded cursor: the sort it was made for and the values of the item it points at. */
interface CursorPosition {
  /** The normalised `sort` the cursor belongs to (`-year,title,id`). */
  sort: string;
  /** The item's value for each sort field, the key last. */
  values: CursorValue[];
}

// The MAC is cut to 128 bits: enough against forgery, and a cursor stays short in a URL.
const macLength = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Seals and opens cursors under one secret, for one list (`scope`), so a cursor of one list never opens another. */
export class CursorSeal {
  private key: HmacKey | undefined;
  private readonly secret: Uint8Array | (() => Uint8Array);

  /** `secret` may be a function, asked once on first use (see {@link lazyRandomSecret}). */
  constructor(secret: Uint8Array | (() => Uint8Array)) {
    this.secret = secret;
    if (secret instanceof Uint8Array) this.key = hmacKey(secret);
  }

  private mac(scope: string, payload: string): Uint8Array {
    const secret = this.secret;
    this.key ??= hmacKey(typeof secret === 'function' ? secret() : secret);
    return hmacSha256(this.key, encoder.encode(`${scope}\n${payload}`)).subarray(0, macLength);
  }

  /** The cursor of a position. */
  seal(scope: string, position: CursorPosition): string {
    const values = position.values.map((v) => (v instanceof Date ? { d: v.getTime() } : v));
    const payload = toBase64Url(encoder.encode(JSON.stringify([position.sort, values])));
    return `${payload}.${toBase64Url(this.mac(scope, payload))}`;
  }

  /**
   * The position a cursor holds; `undefined` when it is not one this seal made for `scope`
   * (altered, truncated, made under another secret or for another list).
   */
  open(scope: string, cursor: string): CursorPosition | undefined {
    const dot = cursor.indexOf('.');
    if (dot <= 0) return undefined;
    const payload = cursor.slice(0, dot);
    const mac = fromBase64Url(cursor.slice(dot + 1));
    if (mac === undefined || !equalBytes(mac, this.mac(scope, payload))) return undefined;
    const bytes = fromBase64Url(payload);
    if (bytes === undefined) return undefined;
    try {
      const [sort, values] = JSON.parse(decoder.decode(bytes)) as [unknown, unknown];
      if (typeof sort !== 'string' || !Array.isArray(values)) return undefined;
      return { sort, values: values.map(revive) };
    } catch {
      return undefined;
    }
  }
}

function revive(value: unknown): CursorValue {
  if (typeof value === 'object' && value !== null) return new Date((value as { d: number }).d);
  return value as CursorValue;
}

/** Tells whether a parameter looks like a cursor (`payload.mac`) rather than a plain identifier. */
export function looksLikeCursor(value: string): boolean {
  return /^[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{22}$/.test(value);
}

/** 32 random bytes: the secret of a process that was given none (cursors then last as long as it). */
function randomSecret(): Uint8Array {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

/**
 * A process's random secret, drawn on first use rather than at start-up: a Workers global scope,
 * where the service is built, allows no random values.
 */
export function lazyRandomSecret(): () => Uint8Array {
  let secret: Uint8Array | undefined;
  return () => {
    secret ??= randomSecret();
    return secret;
  };
}
