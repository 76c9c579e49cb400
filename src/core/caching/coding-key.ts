/**
 * The codings a request accepts, as a short key of its entity tags, for a service whose responses a
 * compression companion may encode after they are sent: a strong tag differs per content coding
 * (RFC 9110 §8.8.3), and the coding such a companion picks depends on `Accept-Encoding` alone.
 */
import { hashBody, parseTags } from './etag.ts';

// The codings a compression package may choose; identity and unknown codings change nothing.
const encoders = new Set(['br', 'gzip', 'x-gzip', 'deflate', 'zstd', 'compress', '*']);
const remembered = new Map<string, string>();

/**
 * A short key for the codings `Accept-Encoding` accepts with their weights (`''` when it accepts
 * none a compression package would choose): two requests a compression package may answer in
 * different codings get different keys. Cost: linear in the value; at most 64 values of up to 256
 * characters are remembered.
 *
 * @category Caching
 */
export function codingKey(acceptEncoding: string | null | undefined): string {
  if (acceptEncoding == null || acceptEncoding === '') return '';
  const known = remembered.get(acceptEncoding);
  if (known !== undefined) return known;
  const accepted: string[] = [];
  for (const member of acceptEncoding.split(',')) {
    const [name = '', ...params] = member.split(';');
    const coding = name.trim().toLowerCase();
    if (!encoders.has(coding)) continue;
    let weight = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') weight = Number(value.trim());
    }
    // RFC 9110 §12.5.3: q=0 refuses the coding; a weight that cannot be read counts as none.
    if (weight > 0) accepted.push(`${coding};${weight}`);
  }
  const key = accepted.length === 0 ? '' : hashBody(accepted.sort().join(','), 'ae').slice(0, 7);
  if (acceptEncoding.length <= 256) {
    if (remembered.size >= 64) remembered.clear();
    remembered.set(acceptEncoding, key);
  }
  return key;
}

/**
 * The tag of a 304: the one the client holds (RFC 9110 §15.4.5), which the companion that encoded
 * the 200 may have made weak (hono/compress does); the 304, with no content, passes it untouched.
 *
 * @category Caching
 */
export function heldTag(tag: string, ifNoneMatch: string | null | undefined): string {
  if (tag.startsWith('W/') || ifNoneMatch == null) return tag;
  const tags = parseTags(ifNoneMatch);
  if (!Array.isArray(tags)) return tag;
  const opaque = tag.slice(1, -1);
  let weak = false;
  for (const held of tags) {
    if (held.opaque !== opaque) continue;
    if (!held.weak) return tag;
    weak = true;
  }
  return weak ? `W/${tag}` : tag;
}
