/** How much of a client's path or value an error message repeats back. */

/**
 * The most characters of a client's value that an error message repeats (404, 414).
 *
 * @category Routing
 */
export const echoLimit = 100;

/**
 * Returns `value` as it is when it has at most `max` characters, or its first `max` characters
 * followed by `…`, so a 404 or 414 message never repeats a huge path or value whole.
 *
 * @category Routing
 */
export function boundedEcho(value: string, max: number = echoLimit): string {
  if (!Number.isInteger(max) || max < 1) {
    throw new TypeError(`boundedEcho: max must be a positive integer such as 100; got ${max}.`);
  }
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  // Never cut a surrogate pair in half: a lone surrogate is not text.
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}
