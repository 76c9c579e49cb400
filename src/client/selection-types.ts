/**
 * The client's types of a representation as it arrives: JSON's wire form, every member present,
 * the members `fields` selected. Types only: nothing here exists at run time.
 */

/**
 * A value as it arrives in JSON: a `Date` is its RFC 3339 string.
 *
 * @category Client
 */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer E)[]
    ? Wire<E>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/**
 * Every member present, deeply: what a resource sends when no `fields` or `view` selects.
 *
 * @category Client
 */
export type Whole<T> = T extends readonly (infer E)[]
  ? Whole<E>[]
  : T extends object
    ? { [K in keyof T]-?: Whole<Exclude<T[K], undefined>> }
    : T;

/**
 * An item as sent: every member without a selection, the selected ones with one.
 *
 * @category Client
 */
export type Select<E, F extends string> = [F] extends [never]
  ? Whole<E>
  : { [K in F & keyof E]-?: Whole<Exclude<E[K], undefined>> };
