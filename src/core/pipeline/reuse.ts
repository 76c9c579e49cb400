/**
 * The JSON text of a versioned read, written once and sent again while nothing it depends on
 * changed: the route's version, the request, and the value its handler gave.
 */

import { BoundedCache } from '../internal/bounded-cache.ts';
import type { Representation } from '../kernel/run.ts';
import { ListPage } from '../paging/list-query.ts';

// At most this many texts are kept, each of at most `maxText` UTF-16 units: 8 Mi units in all.
const maxTexts = 128;
const maxText = 64 * 1024;
// How deep two handler values are compared, and how many of their members at most.
const maxDepth = 8;
const maxMembers = 4096;

interface Kept {
  /** The rest of the name it was kept under. */
  details: readonly string[];
  /** The handler's value the text was written from. */
  given: unknown;
  /** The text. */
  text: string;
}

const { getPrototypeOf, keys } = Object;
// How many more members the comparison under way may look at.
let left = 0;

/**
 * A service's kept texts, by the name of what they represent (see `Run.representation`). A text
 * is sent again only for a handler value the same as the one it was written from: the same
 * objects, or plain data (objects, arrays, `Date`s, primitives) equal member by member. Anything
 * else is compared by identity: an object that changed in place is the route's version's to tell.
 *
 * @internal
 */
export class TextReuse {
  private readonly kept = new BoundedCache<string, Kept>(maxTexts);

  /** The text kept under `name` for a value the same as `given`, or `undefined`. */
  find(name: Representation, given: unknown): string | undefined {
    const kept = this.kept.get(name.key);
    if (kept === undefined) return undefined;
    const { details } = name;
    if (details.length !== kept.details.length) return undefined;
    for (let i = 0; i < details.length; i++) if (details[i] !== kept.details[i]) return undefined;
    left = maxMembers;
    return same(kept.given, given, maxDepth) ? kept.text : undefined;
  }

  /** Keeps the text written from `given` under `name`, when it is short enough. */
  keep(name: Representation, given: unknown, text: string | Uint8Array): void {
    if (typeof text === 'string' && text.length <= maxText) {
      this.kept.set(name.key, { details: name.details, given, text });
    }
  }
}

/**
 * Whether two handler values give the same JSON text: the same value, or two plain objects,
 * arrays, pages or `Date`s whose members are the same, within `depth` levels and `left` members
 * (past either, only the same object is the same). Members are read as they are now.
 */
function same(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth === 0) return false;
  const proto = getPrototypeOf(a);
  if (proto !== getPrototypeOf(b)) return false;
  if (proto === Array.prototype) {
    const x = a as unknown[];
    const y = b as unknown[];
    // A `toJSON` of its own makes an array another text.
    if (x.length !== y.length || 'toJSON' in x || 'toJSON' in y) return false;
    left -= x.length;
    if (left < 0) return false;
    for (let i = 0; i < x.length; i++) if (!same(x[i], y[i], depth - 1)) return false;
    return true;
  }
  if (proto === Date.prototype) {
    return ownToJSON(a) && ownToJSON(b) && (a as Date).getTime() === (b as Date).getTime();
  }
  if (proto === ListPage.prototype) {
    const x = a as ListPage;
    const y = b as ListPage;
    // The page's request is the name's (its query); what it found is compared.
    return (
      x.hasNext === y.hasNext &&
      x.hasPrevious === y.hasPrevious &&
      x.total === y.total &&
      x.query.spec === y.query.spec &&
      same(x.items, y.items, depth - 1)
    );
  }
  // A `toJSON` of its own may write anything, at any time.
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in a || 'toJSON' in b) {
    return false;
  }
  // The same names in the same order: a text lists an object's members in its own order.
  const names = keys(a);
  const other = keys(b);
  if (names.length !== other.length) return false;
  left -= names.length;
  if (left < 0) return false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name !== other[i]) return false;
    const x = (a as Record<string, unknown>)[name];
    const y = (b as Record<string, unknown>)[name];
    if (!same(x, y, depth - 1)) return false;
  }
  return true;
}

/** Whether a `Date` writes its text with the built-in `toJSON`. */
function ownToJSON(date: object): boolean {
  return (date as Date).toJSON === Date.prototype.toJSON;
}
