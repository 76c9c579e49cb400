/** The shapes of body field rules, shared by the checker and the rule compiler. */

/**
 * The JSON types a field may have; `date-time` is an RFC 3339 string (spec 2.6).
 *
 * @category Payloads
 */
export type FieldType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'date-time';

/**
 * What one field must be.
 *
 * @category Payloads
 */
export interface FieldRule {
  /** The JSON type the value must have. */
  type: FieldType;
  /** @default false */
  required?: boolean;
  /** Whether `null` is accepted. @default false */
  nullable?: boolean;
  /** Smallest number, or fewest characters (code points) of a string or items of an array. */
  min?: number;
  /** Largest number, or most characters (code points) of a string or items of an array. */
  max?: number;
  /** A pattern a string must match. */
  pattern?: RegExp;
  /** The values allowed. */
  enum?: readonly (string | number | boolean)[];
  /** An example value, shown in the OpenAPI document; it must fit the rule. */
  example?: unknown;
}

/**
 * Field names mapped to their rules.
 *
 * @category Payloads
 */
export type FieldSchema = Readonly<Record<string, FieldRule>>;
