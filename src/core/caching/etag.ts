/** Entity tags (RFC 9110 §8.8.3): built over the sent bytes or from a version, parsed and compared. */
import { nodeCrypto } from '../internal/platform.ts';

/**
 * A 64-bit hash of a body (string code units or bytes), seeded with its media type so that the
 * JSON and the XML of one resource never share a tag. Not cryptographic: it tells versions of
 * one resource apart, which is all a validator needs.
 *
 * @category Caching
 */
export function hashBody(body: string | Uint8Array, seed: string): string {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (let i = 0; i < seed.length; i++) {
    const c = seed.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  if (typeof body === 'string') {
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
  } else {
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b) ^ b;
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35) ^ a;
  return (a >>> 0).toString(36) + (b >>> 0).toString(36) + body.length.toString(36);
}

/**
 * The runtime's own SHA-1, when it has one that answers synchronously (Node's `crypto.hash`):
 * several times faster than hashing in JavaScript. Elsewhere the JavaScript hash serves.
 */
const nativeHash = nodeCrypto?.hash;

/**
 * The opaque part of a tag over a response's bytes: SHA-1 (132 bits of it) where the runtime
 * offers it synchronously, else {@link hashBody}; followed by the format's key, so that the JSON
 * and the XML of one resource never share a tag.
 *
 * @category Caching
 */
export function bytesTag(body: string | Uint8Array, type: string | undefined): string {
  const digest =
    nativeHash === undefined
      ? hashBody(body, '')
      : nativeHash('sha1', body, 'base64url').slice(0, 22);
  return `${digest}.${formatKey(type)}`;
}

// RFC 9110 §8.8.3: etagc is %x21 / %x23-7E / obs-text.
const etagc = /^[\x21\x23-\x7e\x80-\xff]*$/;

/**
 * The key a format adds to a version's tag: `json`, `xml`, or a short hash of another media type.
 *
 * @category Caching
 */
export function formatKey(type: string | undefined): string {
  if (type === undefined || type === 'application/json') return 'json';
  if (type === 'application/xml') return 'xml';
  if (type.startsWith('application/json;')) return 'json';
  return hashBody(type, 'type').slice(0, 7);
}

const queryHashes = new Map<string, string>();
const varyHashes = new Map<string, string>();

/**
 * `hashBody(text, seed)`, remembered for short texts: most requests of a service repeat a few
 * queries and callers' link keys. At most 512 texts of at most 256 characters are kept per
 * table, which starts over when full.
 */
function recentHash(table: Map<string, string>, text: string, seed: string): string {
  if (text.length > 256) return hashBody(text, seed);
  let hash = table.get(text);
  if (hash === undefined) {
    hash = hashBody(text, seed);
    if (table.size >= 512) table.clear();
    table.set(text, hash);
  }
  return hash;
}

/**
 * The entity tag of a resource version in one format: `"<version>.<format>"`, weak on request,
 * with a hash of the query after it when there is one (`"17.json-3kd92ja0"`), and one of `vary`,
 * whatever else of the request the representation depends on (the caller's links, the API
 * version), when it is not empty (`"17.json~1x2y3z…"`). A version with characters a tag may not
 * hold is hashed.
 *
 * @category Caching
 */
export function versionTag(
  version: string,
  type: string | undefined,
  weak: boolean,
  query = '',
  vary = '',
): string {
  // A query (fields=, view=) picks another representation of the same version: its own tag.
  const variant = query === '' ? '' : `-${recentHash(queryHashes, query, 'q').slice(0, 8)}`;
  // RFC 9110 §8.8.3: a strong tag changes with the representation, links for this caller included.
  const varied = vary === '' ? '' : `~${recentHash(varyHashes, vary, 'c')}`;
  return `${weak ? 'W/' : ''}"${versionOpaque(version)}.${formatKey(type)}${variant}${varied}"`;
}

/**
 * The part of a version's tags that every format shares: the version itself, or its hash when
 * it holds characters a tag may not.
 *
 * @category Caching
 */
export function versionOpaque(version: string): string {
  return version.length <= 128 && etagc.test(version) ? version : hashBody(version, 'v');
}

/**
 * One entity tag of a request's `If-Match` or `If-None-Match`.
 *
 * @category Caching
 */
export interface ParsedTag {
  /** Whether it is weak (`W/`). */
  weak: boolean;
  /** The quoted text, without the quotes. */
  opaque: string;
}

const maxTags = 64;
const tagPattern = /\s*(W\/)?"([^"]*)"\s*(?:,|$)/y;

/**
 * The tags of an `If-Match` / `If-None-Match` value: `'*'`, a list, or `undefined` when it is
 * malformed (a malformed list matches nothing). At most 64 tags are read.
 *
 * @category Caching
 */
export function parseTags(value: string): '*' | ParsedTag[] | undefined {
  // Cost: linear in the value (a sticky pattern, never rescanning), at most 64 tags read.
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  const tags: ParsedTag[] = [];
  tagPattern.lastIndex = 0;
  let at = 0;
  while (at < value.length && tags.length < maxTags) {
    // Empty list elements (`"a", , "b"`) are allowed (RFC 9110 §5.6.1).
    while (value[at] === ',' || value[at] === ' ' || value[at] === '\t') at++;
    if (at >= value.length) break;
    tagPattern.lastIndex = at;
    const match = tagPattern.exec(value);
    if (match === null || !etagc.test(match[2]!)) return undefined;
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
    at = tagPattern.lastIndex;
  }
  return tags;
}

/**
 * Splits a tag this library sent (`"a1b2"`, `W/"v.json"`) into its parts; `undefined` for none.
 *
 * @category Caching
 */
export function splitTag(tag: string): ParsedTag | undefined {
  const weak = tag.startsWith('W/');
  const quoted = weak ? tag.slice(2) : tag;
  if (quoted.length < 2 || quoted[0] !== '"' || quoted[quoted.length - 1] !== '"') return undefined;
  return { weak, opaque: quoted.slice(1, -1) };
}
