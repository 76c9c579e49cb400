/** `Accept` read in one bounded pass (RFC 9110 §12.5.1), and the best of a few offered types chosen from it. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';

/** The longest `Accept` value negotiated; a longer one is 431 (RFC 6585 §5). Browsers send ~150. */
export const maxAcceptLength = 4096;
/** The most media ranges negotiated; more is 431. Browsers send fewer than 10. */
export const maxMediaRanges = 64;
/** The most distinct vendor types of one `Accept` offered back; later ones are not offered. */
export const maxVendorTypes = 16;

/** One media range, lower-cased, reduced to what matters against a type without parameters. */
export interface MediaRange {
  /** The type, `*` for any. */
  readonly type: string;
  /** The subtype, `*` for any. */
  readonly subtype: string;
  /** The weight; 1 when absent, NaN when not a number (then never acceptable). */
  readonly q: number;
  /**
   * 1 when it has parameters besides `q`, all `*` or empty (they count as more specific); -1
   * when one is something else, so that it fits no type offered here (they have no parameters).
   */
  readonly bonus: -1 | 0 | 1;
  /** Its position in the header: the earlier of two equal ranges wins. */
  readonly index: number;
}

const SP = 32;
const HTAB = 9;
const COMMA = 44;
const SEMI = 59;
const EQ = 61;
const DQUOTE = 34;
const BSLASH = 92;

function skipSpace(text: string, at: number): number {
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c !== SP && c !== HTAB) break;
    at++;
  }
  return at;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start) {
    const c = text.charCodeAt(end - 1);
    if (c !== SP && c !== HTAB) break;
    end--;
  }
  return end;
}

/** Moves to the next `;` or `,` (or the end). */
function skipValue(text: string, at: number): number {
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === SEMI || c === COMMA) break;
    at++;
  }
  return at;
}

/** 431 for an `Accept` value longer than {@link maxAcceptLength}. */
export function acceptTooLong(length: number): ApiError {
  return new ApiError(
    431,
    ErrorCode.AcceptTooLong,
    `The Accept header is ${length} characters long; this service negotiates at most ${maxAcceptLength} (RFC 6585 §5). Send the media ranges you need, such as application/json.`,
  );
}

function tooManyRanges(): ApiError {
  return new ApiError(
    431,
    ErrorCode.TooManyMediaRanges,
    `The Accept header lists more than ${maxMediaRanges} media ranges; this service negotiates at most ${maxMediaRanges} (RFC 6585 §5). Send the media ranges you need, such as application/json.`,
  );
}

/**
 * The media ranges of an `Accept` value, read as negotiator reads them (parameters after `q`
 * included, the first value of a parameter kept, a quoted comma not splitting); elements that
 * are no `type/subtype` are left out. More than {@link maxMediaRanges} non-empty elements is a 431.
 */
// Cost: linear in the value (each character visited once), at most 4096 characters and 64 ranges.
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  const len = header.length;
  let elements = 0;
  let index = 0;
  let at = 0;
  while (at < len) {
    const start = skipSpace(header, at);
    at = skipValue(header, start);
    const typeText = header.slice(start, trimEnd(header, start, at)).toLowerCase();
    let qText: string | undefined;
    let seen: Set<string> | undefined;
    let bonus: -1 | 0 | 1 = 0;
    // Parameters: `; name = value`, the value a token or a quoted string.
    while (at < len && header.charCodeAt(at) === SEMI) {
      at = skipSpace(header, at + 1);
      const nameStart = at;
      while (at < len) {
        const c = header.charCodeAt(at);
        if (c === SEMI || c === COMMA || c === EQ) break;
        at++;
      }
      if (at >= len || header.charCodeAt(at) !== EQ) continue; // `;flag`: no parameter
      const name = header.slice(nameStart, trimEnd(header, nameStart, at)).toLowerCase();
      at = skipSpace(header, at + 1);
      let value: string | undefined;
      if (at < len && header.charCodeAt(at) === DQUOTE) {
        let end = at + 1;
        let escaped = false;
        while (end < len) {
          const c = header.charCodeAt(end);
          if (c === DQUOTE) break;
          if (c === BSLASH && end + 1 < len) {
            escaped = true;
            end += 2;
          } else end++;
        }
        if (end < len) {
          const raw = header.slice(at + 1, end);
          value = escaped ? raw.replace(/\\([\s\S])/g, '$1') : raw;
          at = skipValue(header, end + 1);
        } else at = len; // an unterminated quoted string sets nothing
      } else {
        const valueStart = at;
        at = skipValue(header, at);
        value = header.slice(valueStart, trimEnd(header, valueStart, at));
      }
      if (value === undefined) continue;
      if (name === 'q') {
        qText ??= value;
        continue;
      }
      seen ??= new Set();
      if (seen.has(name)) continue;
      seen.add(name);
      if (value !== '*' && value !== '') bonus = -1;
      else if (bonus === 0) bonus = 1;
    }
    if (typeText !== '') {
      elements++;
      if (elements > maxMediaRanges) {
        throw tooManyRanges();
      }
      const slash = typeText.indexOf('/');
      if (slash !== -1) {
        ranges.push({
          type: typeText.slice(0, slash),
          subtype: typeText.slice(slash + 1),
          q: qText ? Number.parseFloat(qText) : 1,
          bonus,
          index,
        });
      }
    }
    index++;
    at++; // past the comma
  }
  return ranges;
}

/** How well a range fits an offered type: specificity, weight, position; `undefined` when not. */
interface Fit {
  s: number;
  q: number;
  o: number;
  i: number;
}

/**
 * The best of `offered` (lower-case `type/subtype` without parameters) for the ranges, or
 * `undefined` when none is acceptable. The most specific range that fits a type decides its
 * weight (RFC 9110 §12.5.1); then the heaviest type wins, then the more specific, the earlier
 * range, the earlier offer, exactly as negotiator orders them.
 */
// Cost: one comparison per pair, at most (3 + 16) offers × 64 ranges = 1,216 pairs.
export function chooseType(offered: readonly string[], ranges: readonly MediaRange[]): number {
  let best: Fit | undefined;
  let chosen = -1;
  for (let i = 0; i < offered.length; i++) {
    const type = offered[i]!;
    const slash = type.indexOf('/');
    const main = type.slice(0, slash);
    const sub = type.slice(slash + 1);
    let fit: Fit = { s: 0, q: 0, o: -1, i };
    for (const range of ranges) {
      if (range.bonus < 0) continue;
      let s: number = range.bonus;
      if (range.type === main) s |= 4;
      else if (range.type !== '*') continue;
      if (range.subtype === sub) s |= 2;
      else if (range.subtype !== '*') continue;
      // The order of negotiator's comparison, NaN weights included.
      if ((fit.s - s || fit.q - range.q || fit.o - range.index) < 0) {
        fit = { s, q: range.q, o: range.index, i };
      }
    }
    if (!(fit.q > 0)) continue;
    if (
      best === undefined ||
      (fit.q - best.q || fit.s - best.s || best.o - fit.o || best.i - fit.i) > 0
    ) {
      best = fit;
      chosen = i;
    }
  }
  return chosen;
}
