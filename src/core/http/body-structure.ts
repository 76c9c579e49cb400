/**
 * How much structure a request body may hold: its depth, the items of one
 * array, the members of one object and its values in all, bounded while the body is parsed so
 * that no schema, field rule or handler ever sees more ([Request limits](../../../docs/limits.md)).
 */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';

/**
 * The bounds on a request body's structure, checked while it is parsed (JSON and form bodies,
 * and a body the host's own parser made), before any schema or field rule sees it: past any of
 * them the answer is 413 naming the bound. Set service-wide in `conventions({ bodyStructure })`,
 * per route in its `bodyStructure` setting (the keys it names; the others stay the service's).
 *
 * @category Limits
 */
export interface BodyStructure {
  /** The deepest nesting of arrays and objects: `{}` is 1 level, `{"a":[1]}` 2. @default 64 */
  maxDepth?: number;
  /** The most items of one array; in a form, the values of one repeated field. @default 10000 */
  maxItems?: number;
  /** The most members of one object; in a form, its distinct field names. @default 10000 */
  maxMembers?: number;
  /**
   * The most values in the whole body, at every depth (each item of an array, each member of an
   * object); in a form, its `name=value` pairs. This is what bounds a schema's work. @default 20000
   */
  maxValues?: number;
}

/**
 * {@link BodyStructure} with every bound resolved.
 *
 * @category Limits
 */
export type StructureLimits = Readonly<Required<BodyStructure>>;

/**
 * The bounds a body's structure has unless the service or the route says otherwise.
 *
 * @category Limits
 */
export const defaultBodyStructure: StructureLimits = Object.freeze({
  maxDepth: 64,
  maxItems: 10_000,
  maxMembers: 10_000,
  maxValues: 20_000,
});

const keys = ['maxDepth', 'maxItems', 'maxMembers', 'maxValues'] as const;
const most = 2 ** 31 - 1;

/**
 * Checks a `bodyStructure` option or route setting (a `TypeError` naming what is wrong) and
 * returns the bounds it names, the others left out.
 *
 * @category Limits
 */
export function checkBodyStructure(where: string, given: unknown): BodyStructure {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new TypeError(
      `${where} must be an object of bounds, such as { maxDepth: 32, maxItems: 1000 }; got ${String(given)}.`,
    );
  }
  assertKnownKeys(where, given, keys);
  const out: BodyStructure = {};
  for (const key of keys) {
    const value = (given as BodyStructure)[key];
    if (value !== undefined)
      out[key] = assertInteger(`${where}.${key}`, value, key === 'maxDepth' ? 1 : 0, most);
  }
  return out;
}

/**
 * The bounds of `given` over `base`, checked, frozen: what the request path reads.
 *
 * @category Limits
 */
export function compileBodyStructure(
  where: string,
  given: unknown,
  base: StructureLimits = defaultBodyStructure,
): StructureLimits {
  if (given === undefined) return base;
  return Object.freeze({ ...base, ...checkBodyStructure(where, given) });
}

// 413 (RFC 9110 §15.5.14): the content is larger than the server is willing to process. The
// body was read whole, so the connection can carry the next request.
const most413 = 'the most this route reads.';

/** 413 {@link ErrorCode.BodyTooDeep}. */
export function tooDeep(limit: number): ApiError {
  return new ApiError(
    413,
    ErrorCode.BodyTooDeep,
    `The request body nests arrays and objects deeper than ${limit} levels, ${most413}`,
  );
}

/** 413 {@link ErrorCode.ArrayTooLong}; in a form, a field repeated too often. */
export function tooManyItems(limit: number, form = false): ApiError {
  return new ApiError(
    413,
    ErrorCode.ArrayTooLong,
    form
      ? `A field of the form is repeated more than ${limit} times, ${most413}`
      : `An array in the request body holds more than ${limit} items, ${most413}`,
  );
}

/** 413 {@link ErrorCode.ObjectTooLarge}; in a form, too many distinct fields. */
export function tooManyMembers(limit: number, form = false): ApiError {
  return new ApiError(
    413,
    ErrorCode.ObjectTooLarge,
    form
      ? `The form has more than ${limit} distinct fields, ${most413}`
      : `An object in the request body holds more than ${limit} members, ${most413}`,
  );
}

/** 413 {@link ErrorCode.TooManyValues}; in a form, too many fields in all. */
export function tooManyValues(limit: number, form = false): ApiError {
  return new ApiError(
    413,
    ErrorCode.TooManyValues,
    form
      ? `The form holds more than ${limit} fields, ${most413}`
      : `The request body holds more than ${limit} values, ${most413}`,
  );
}
