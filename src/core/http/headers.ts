/** Response headers as a bag: lower-case names, set, append and `Vary` merging, checked on entry. */

/**
 * A header value as a caller gives it: a string, a number, or several values.
 *
 * @category Replies and HTTP
 */
export type HeaderValue = string | number | readonly (string | number)[];

/**
 * Headers as a caller gives them: a plain object of values, or another bag.
 *
 * @category Replies and HTTP
 */
export type HeaderInit = Readonly<Record<string, HeaderValue | undefined>> | HeaderBag;

/**
 * Response headers as sent: lower-case names; an array value is sent as repeated header lines.
 *
 * @category Replies and HTTP
 */
export type ResponseHeaders = Record<string, string | string[]>;

// RFC 9110 §5.1, §5.6.2: a field name is a token.
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 9110 §5.5: a field value never holds CR, LF or NUL; one that does would split the response.
const forbidden = /[\r\n\0]/;

// Headers whose values add up when two parts of the pipeline set them (RFC 9110 §5.3):
// a cookie or a link from one feature never replaces another's.
const listed = new Set(['set-cookie', 'link']);

function checkedName(name: string): string {
  if (!token.test(name)) throw new TypeError(`"${name}" is not a valid response header name.`);
  return name.toLowerCase();
}

function checkedValue(name: string, value: string | number): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') {
    throw new TypeError(`The response header "${name}" must be a string or a number.`);
  }
  if (forbidden.test(text)) {
    throw new TypeError(`The response header "${name}" holds a line break or NUL.`);
  }
  return text;
}

function varyTokens(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** `Vary` with the names of `added` merged into `current` (both as sent); `''` for none. */
function mergeVary(current: string, added: string): string {
  const tokens = varyTokens(current);
  if (tokens.includes('*')) return current;
  const seen = new Set(tokens.map((t) => t.toLowerCase()));
  for (const name of varyTokens(added)) {
    if (name === '*') return '*';
    if (seen.has(name.toLowerCase())) continue;
    checkedName(name);
    seen.add(name.toLowerCase());
    tokens.push(name);
  }
  return tokens.length > 0 ? tokens.join(', ') : current;
}

// A service merges the same few names into the same few values on every response (Origin,
// Accept, Authorization): each merge is worked out once and remembered. Only the first merges
// are remembered (up to a bound), so the table never grows past it nor churns.
const varyMemo = new Map<string, Map<string, string>>();
const varyMemoBound = 256;
let varyMemoSize = 0;

function varyWith(current: string, added: string): string {
  const known = varyMemo.get(current)?.get(added);
  if (known !== undefined) return known;
  const merged = mergeVary(current, String(added));
  if (varyMemoSize < varyMemoBound) {
    let inner = varyMemo.get(current);
    if (inner === undefined) {
      inner = new Map();
      varyMemo.set(current, inner);
    }
    inner.set(added, merged);
    varyMemoSize++;
  }
  return merged;
}

// A record's lookups end at an object with no members and no prototype, so a header named
// `constructor`, `toString` or `__proto__` is only ever the record's own member. Made by a
// constructor rather than by `Object.create(null)`: V8 keeps such an object's members fast,
// where an `Object.create(null)` object is a dictionary from the start, which node:http then
// walks more slowly when it writes the head.
const HeaderRecord = function HeaderRecord() {} as unknown as new () => ResponseHeaders;
(HeaderRecord as unknown as { prototype: object }).prototype = Object.create(null);

/**
 * The headers of one response. Names are lower-cased, so `X-Foo` and `x-foo` are one header;
 * every value is checked once, when it is set, so a line break can never split a response.
 * `append` keeps several values (`Set-Cookie`, `Link`), and `vary` merges request-header names
 * into one `Vary` without repeats (RFC 9110 §12.5.5).
 *
 * @example
 * ```ts
 * import { HeaderBag } from 'api-conventions';
 * const headers = new HeaderBag({ 'Cache-Control': 'no-store' });
 * headers.append('set-cookie', 'a=1; Path=/; Secure; HttpOnly');
 * headers.append('set-cookie', 'b=2; Path=/; Secure; HttpOnly');
 * headers.vary('Origin').vary('Accept'); // Vary: Origin, Accept
 * ```
 *
 * @category Replies and HTTP
 */
export class HeaderBag {
  /** The headers by lower-case name, as they will be sent. Read it; change it through the methods. */
  readonly record: ResponseHeaders = new HeaderRecord();

  constructor(init?: HeaderInit) {
    if (init instanceof HeaderBag) {
      // A copy: the values were checked and merged already, and arrays are never changed in
      // place (append builds a new one), so they can be shared.
      const from = init.record;
      for (const name in from) this.record[name] = from[name]!;
    } else if (init !== undefined) {
      this.merge(init);
    }
  }

  /** The value of a header: a string, several values, or `undefined` when absent. */
  get(name: string): string | string[] | undefined {
    return this.record[name.toLowerCase()];
  }

  /** Tells whether a header is set. */
  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  /** Sets a header, replacing any value it had. An array sends the header once per value. */
  set(name: string, value: HeaderValue): this {
    const key = checkedName(name);
    this.record[key] =
      typeof value === 'object' ? value.map((v) => checkedValue(key, v)) : checkedValue(key, value);
    return this;
  }

  /** Adds a value to a header, keeping the ones it has: `Set-Cookie` and `Link` are sent once each. */
  append(name: string, value: HeaderValue): this {
    const key = checkedName(name);
    const added =
      typeof value === 'object'
        ? value.map((v) => checkedValue(key, v))
        : [checkedValue(key, value)];
    const current = this.record[key];
    if (current === undefined) this.record[key] = added.length === 1 ? added[0]! : added;
    else this.record[key] = [...(typeof current === 'string' ? [current] : current), ...added];
    return this;
  }

  /**
   * Adds request-header names to `Vary`, never twice and whatever their case; `*` stands for
   * every header and absorbs the rest.
   */
  vary(...names: string[]): this {
    const current = this.record.vary;
    let value =
      current === undefined ? '' : typeof current === 'string' ? current : current.join(', ');
    for (let i = 0; i < names.length; i++) value = varyWith(value, names[i]!);
    if (value !== '') this.record.vary = value;
    return this;
  }

  /** Removes a header; tells whether it was set. */
  delete(name: string): boolean {
    const key = name.toLowerCase();
    if (this.record[key] === undefined) return false;
    delete this.record[key];
    return true;
  }

  /**
   * Adds other headers to these: `Vary` merges, `Set-Cookie` and `Link` append, any other header
   * replaces the value it had here. Values from another bag were checked already.
   */
  merge(init: HeaderInit): this {
    const from = init instanceof HeaderBag ? init.record : init;
    const trusted = init instanceof HeaderBag;
    for (const name in from) {
      const value = from[name];
      if (value === undefined) continue;
      const key = trusted ? name : name.toLowerCase();
      if (key === 'vary') {
        if (typeof value === 'object') this.vary(...value.map(String));
        else this.vary(String(value));
      } else if (listed.has(key)) this.append(key, value);
      else if (trusted) this.record[key] = value as string | string[];
      else this.set(key, value);
    }
    return this;
  }

  /** Headers checked once, at start-up, and copied as they are onto each response. */
  static constant(init: HeaderInit): Readonly<ResponseHeaders> {
    return Object.freeze({ ...new HeaderBag(init).record });
  }
}
