/**
 * JSON text for response values: the built-in `JSON.stringify`, given the value with each `Date`
 * already in its text, since the built-in asks each `Date`'s `toJSON` back in JavaScript.
 */

const { toJSON: dateToJSON, toISOString: dateToISOString } = Date.prototype;
const { getPrototypeOf, hasOwn } = Object;
// Values are looked into only this deep: past it the built-in writes what is left as it is
// (the `Date`s slowly), and a cycle is left to it, to throw its own `TypeError`.
const watchDepth = 64;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** `date.toISOString()` for the years 0–9999, from the UTC fields without a call into C++. */
function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return date.toISOString();
  const y = year < 1000 ? `000${year}`.slice(-4) : String(year);
  return `${y}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}T${pad2(
    date.getUTCHours(),
  )}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${pad3(
    date.getUTCMilliseconds(),
  )}Z`;
}

// A service sends the same instants again and again (a list's createdAt values on every
// request): the text of each is kept in a small direct-mapped table, one slot per hash of the
// instant, so a repeated instant costs a comparison, and a new one only overwrites its slot: no
// map grows, nothing is cleared, whatever the variety of instants.
const dateSlotBits = 10;
const slotTimes = new Float64Array(1 << dateSlotBits).fill(Number.NaN);
const slotTexts: string[] = new Array<string>(1 << dateSlotBits).fill('');

/**
 * The slot of a time value: its two 32-bit halves mixed and multiplied (Fibonacci hashing), the
 * top bits taken, so instants a whole second, minute or hour apart spread over every slot.
 */
function dateSlot(time: number): number {
  const high = Math.floor(time / 0x1_0000_0000) | 0;
  return Math.imul((time >>> 0) ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> (32 - dateSlotBits);
}

/**
 * What the built-in `Date.prototype.toJSON` returns for `date`: its RFC 3339 text in UTC, `null`
 * for an invalid date; from the table of recent instants.
 */
function dateText(date: Date): string | null {
  const time = date.getTime();
  if (Number.isNaN(time)) return null;
  const slot = dateSlot(time);
  if (slotTimes[slot] !== time) {
    slotTimes[slot] = time;
    slotTexts[slot] = isoString(date);
  }
  return slotTexts[slot]!;
}

/**
 * What {@link withDateTexts} puts in for a `Date`: the text its built-in `toJSON` writes, `null`
 * for an invalid one; the `Date` itself where its `toJSON` or `toISOString` is not the built-in's,
 * for `JSON.stringify` to call.
 *
 * @internal
 */
export function dateJson(date: Date): string | null | Date {
  // spec 2.6: a Date is an RFC 3339 string in UTC, as its toJSON writes it; an invalid one is null.
  return date.toJSON === dateToJSON && date.toISOString === dateToISOString ? dateText(date) : date;
}

/**
 * {@link withDateTexts} of an array whose items the library made itself, by a walker that knows
 * where they may hold a `Date`: the payloads plugin's shaped items. With `made`, the items as the
 * library made them for this response alone (see {@link walkDateTextsWith}): an item still the
 * one at its index there may take its members' texts in place instead of in a copy.
 */
export type DateTextsWalker = (
  items: readonly unknown[],
  depth: number,
  made: readonly unknown[] | undefined,
) => unknown;

// An array the library made carries the walker that knows its items' members under this key:
// a member of the array itself, set once it is made, so that finding it costs a property read and
// no table. It is read only on arrays at the top of a value or one level in (a list's items in
// their envelope). A `Date` a walker misses is written by the built-in, with the same text: a
// walker only makes the text cheaper, never different.
const walkerKey = Symbol('api-conventions.dateTexts');
// Beside it, for items made for one response alone: the items as they were made, which a hook
// may since have replaced in the array (with a value of its own, shared perhaps).
const madeKey = Symbol('api-conventions.madeItems');
type Walked = { [walkerKey]?: DateTextsWalker; [madeKey]?: readonly unknown[] };

/**
 * Tells {@link stringifyJson} how to find the `Date`s of `items`, an array the library made and
 * put in a response value (at its top, or as a member of it). A symbol-keyed member, which
 * `JSON.stringify`, `for…in` and `Object.keys` never see. With `own`, the items are copies made
 * for this response alone, which nothing else holds: the response's JSON writer
 * ({@link stringifyResponseJson}) then puts each `Date`'s text into them in place, after every
 * hook saw them with their `Date`s, instead of copying each item again.
 *
 * @internal
 */
export function walkDateTextsWith(items: unknown[], walker: DateTextsWalker, own = false): void {
  (items as Walked)[walkerKey] = walker;
  if (own) (items as Walked)[madeKey] = items.slice();
}

/**
 * `value` with each `Date` that the built-in `toJSON` would write replaced by its text, in copies
 * of the plain objects and arrays on the way to one; `value` itself when none was found. What
 * `JSON.stringify` would hand to another `toJSON` (an object that has one, a class instance) is
 * left to it: the text is always the built-in's, and the handler's value is never changed. With
 * `finish` (the response's writer only), the items a list carries as its own
 * ({@link walkDateTextsWith}) take their texts in place.
 *
 * @internal
 */
export function withDateTexts(value: object, depth: number, finish = false): unknown {
  if (value instanceof Date) return dateJson(value);
  if (depth >= watchDepth) return value;
  if (Array.isArray(value)) {
    if ('toJSON' in value) return value;
    if (depth <= 1) {
      const walker = (value as Walked)[walkerKey];
      if (walker !== undefined) {
        return walker(value, depth, finish ? (value as Walked)[madeKey] : undefined);
      }
    }
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      const next = withDateTexts(item, depth + 1, finish);
      if (next === item) continue;
      copy ??= value.slice();
      copy[i] = next;
    }
    return copy ?? value;
  }
  const proto = getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item !== 'object' || item === null) continue;
    const next = withDateTexts(item, depth + 1, finish);
    if (next === item) continue;
    copy ??= { ...value };
    // The spread copies the own enumerable members, the only ones JSON.stringify writes: one
    // found through the prototype is not, and an own `__proto__` is set as a member.
    if (hasOwn(copy, key)) copy[key] = next;
  }
  return copy ?? value;
}

/**
 * `JSON.stringify(value)`, faster on values that hold `Date`s: the built-in calls each `Date`'s
 * `toJSON` back in JavaScript (on Node 20, 22 and 24 a page of 20 books with 40 dates costs three
 * to five times the same page of strings), so each is put in as its text first, from a table of
 * recent instants. Cycles and `BigInt` throw the built-in's `TypeError`. `value` is never changed.
 *
 * @category Replies and HTTP
 */
export function stringifyJson(value: unknown): string | undefined {
  return JSON.stringify(
    typeof value === 'object' && value !== null ? withDateTexts(value, 0) : value,
  );
}

/**
 * {@link stringifyJson} as the response's JSON serializer runs it, the last step to read the
 * value: the same text, but the items a list carries as its own (the payloads plugin's shaped
 * items, see {@link walkDateTextsWith}) take their `Date`s' texts in place rather than in copies.
 *
 * @internal
 */
export function stringifyResponseJson(value: unknown): string | undefined {
  return JSON.stringify(
    typeof value === 'object' && value !== null ? withDateTexts(value, 0, true) : value,
  );
}
