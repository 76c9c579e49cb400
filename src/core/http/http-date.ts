/** HTTP dates (RFC 9110 §5.6.7): formatted once a second for `Date`, parsed for `If-*-Since`. */

let second = Number.NaN;
let text = '';

/**
 * An HTTP date (IMF-fixdate, RFC 9110 §5.6.7) of a time in milliseconds, to the second.
 *
 * @category Caching
 */
export function httpDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString();
}

/**
 * The `Date` header value for now: formatted at most once a second and shared by every response
 * of that second.
 *
 * @category Caching
 */
export function currentDate(now: number = Date.now()): string {
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    text = new Date(s * 1000).toUTCString();
  }
  return text;
}

// IMF-fixdate, RFC 850 and asctime (RFC 9110 §5.6.7); nothing longer is a date.
const dateShape =
  /^[A-Za-z]{3,9}, ?[0-9A-Za-z :-]{15,30}$|^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/;

/**
 * The time of an HTTP date in milliseconds, or `undefined` when it is not one (the header is
 * then ignored, RFC 9110 §13.1.3).
 *
 * @category Caching
 */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  // Cost: at most 40 characters read; a longer value is no date.
  if (value == null || value.length > 40 || !dateShape.test(value.trim())) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
