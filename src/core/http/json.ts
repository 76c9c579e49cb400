/** JSON text for response values, with `Date` values written without a call back into JavaScript. */

// A string with none of these is written between quotes as it is (RFC 8259 §7).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must be escaped
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/;
const dateToJSON = Date.prototype.toJSON;
// Ancestors are compared for a cycle only this deep: no response value nests further by design.
const watchDepth = 64;

/** Tells whether a `Date` can be reached; past `watchDepth` it says yes, so cycles end there. */
function holdsDate(value: object, depth: number): boolean {
  if (value instanceof Date || depth >= watchDepth) return true;
  // Only members that are objects are visited: a call per string or number would cost more
  // than the scan saves.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null && holdsDate(item, depth + 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && holdsDate(item, depth + 1)) return true;
  }
  return false;
}

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
const slotQuoted: string[] = new Array<string>(1 << dateSlotBits).fill('');

/**
 * The slot of a time value: its two 32-bit halves mixed and multiplied (Fibonacci hashing), the
 * top bits taken, so instants a whole second, minute or hour apart spread over every slot.
 */
function dateSlot(time: number): number {
  const high = Math.floor(time / 0x1_0000_0000) | 0;
  return Math.imul((time >>> 0) ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> (32 - dateSlotBits);
}

/** The slot holding the texts of a valid date whose time value is `time`, filled if need be. */
function slotOf(time: number, date: Date): number {
  const slot = dateSlot(time);
  if (slotTimes[slot] !== time) {
    const text = isoString(date);
    slotTimes[slot] = time;
    slotTexts[slot] = text;
    slotQuoted[slot] = `"${text}"`;
  }
  return slot;
}

/** `"<RFC 3339>"` of a valid date whose time value is `time`. */
function quotedDate(time: number, date: Date): string {
  return slotQuoted[slotOf(time, date)]!;
}

/**
 * What the built-in `Date.prototype.toJSON` returns for `date`: its RFC 3339 text in UTC, `null`
 * for an invalid date; from the same table of recent instants as the JSON writer.
 */
export function dateText(date: Date): string | null {
  const time = date.getTime();
  return Number.isNaN(time) ? null : slotTexts[slotOf(time, date)]!;
}

/** `"<text>"`, escaped as JSON.stringify escapes it. */
export function quote(text: string): string {
  return needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`;
}

// The same property names come back in every object of a list: each is quoted once, with its
// colon, and remembered. Only the first names seen are remembered (up to a bound, short ones
// only): a payload keyed by ids cannot make the table grow or churn.
const keyMemo = new Map<string, string>();
const keyMemoBound = 1024;

/** `"<key>":`, escaped as JSON.stringify escapes it. */
export function quotedKey(key: string): string {
  let text = keyMemo.get(key);
  if (text === undefined) {
    text = `${quote(key)}:`;
    if (key.length <= 64 && keyMemo.size < keyMemoBound) keyMemo.set(key, text);
  }
  return text;
}

/**
 * ECMA-262 SerializeJSONProperty of `value` under `key`: JSON.stringify's text of one member,
 * `undefined` when it is left out.
 */
export function writeMember(value: unknown, key: string | number): string | undefined {
  return write(value, key, []);
}

/** `"<RFC 3339>"` of a `Date` as its built-in toJSON writes it, `null` for an invalid one. */
export function writeDate(date: Date): string {
  const time = date.getTime();
  return Number.isNaN(time) ? 'null' : quotedDate(time, date);
}

export { dateToJSON };

/** ECMA-262 SerializeJSONProperty, with the built-in `Date.prototype.toJSON` done inline. */
// An array passes its index as a number: it becomes the key's text only when a toJSON asks.
function write(value: unknown, key: string | number, path: object[]): string | undefined {
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (toJSON === dateToJSON && value instanceof Date) {
      // spec 2.6: a Date is an RFC 3339 string in UTC, as its toJSON writes it; an invalid one is null.
      const time = value.getTime();
      return Number.isNaN(time) ? 'null' : quotedDate(time, value);
    }
    if (typeof toJSON === 'function') return writeOwn(toJSON.call(value, String(key)), path);
  }
  return writeOwn(value, path);
}

/** The value itself, once any `toJSON` has been applied. */
function writeOwn(value: unknown, path: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (
        value instanceof Number ||
        value instanceof String ||
        value instanceof Boolean ||
        value instanceof BigInt
      ) {
        // Boxed primitives unwrap; a boxed BigInt throws JSON.stringify's own TypeError.
        return JSON.stringify(value);
      }
      if (path.length >= watchDepth && path.includes(value)) {
        throw new TypeError('Converting circular structure to JSON');
      }
      path.push(value);
      const text = Array.isArray(value)
        ? writeArray(value, path)
        : writeObject(value as Record<string, unknown>, path);
      path.pop();
      return text;
    }
    case 'bigint':
      // JSON.stringify's own error, so callers see one behaviour.
      return JSON.stringify(value);
    default:
      return undefined;
  }
}

function writeArray(items: readonly unknown[], path: object[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(items[i], i, path) ?? 'null';
  }
  return `${out}]`;
}

function writeObject(object: Record<string, unknown>, path: object[]): string {
  let out = '{';
  let first = true;
  for (const key of Object.keys(object)) {
    // undefined, a function or a symbol is left out (its toJSON, if any, asked first).
    const text = write(object[key], key, path);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${quotedKey(key)}${text}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * `JSON.stringify(value)` with the same output, faster on values that hold `Date`s: on Node 20
 * the built-in calls each `Date`'s `toJSON` through JavaScript, which made a page of 20 books
 * with 40 dates cost four times a page of strings. A value with no `Date` in reach goes to the
 * built-in as it is. Cycles and `BigInt` throw its `TypeError`.
 *
 * @category Replies and HTTP
 */
export function stringifyJson(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && holdsDate(value, 0)
    ? write(value, '', [])
    : JSON.stringify(value);
}
