/** A small field checker for request bodies that reports every problem at once (spec 7.1.4). */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';

/** The JSON types a field may have; `date-time` is an RFC 3339 string (spec 2.6). */
export type FieldType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'date-time';

/** What one field must be. */
export interface FieldRule {
  /** The JSON type the value must have. */
  type: FieldType;
  /** @default false */
  required?: boolean;
  /** Whether `null` is accepted. @default false */
  nullable?: boolean;
  /** Smallest number, or shortest string or array. */
  min?: number;
  /** Largest number, or longest string or array. */
  max?: number;
  /** A pattern a string must match. */
  pattern?: RegExp;
  /** The values allowed. */
  enum?: readonly (string | number | boolean)[];
}

/** Field names mapped to their rules. */
export type FieldSchema = Readonly<Record<string, FieldRule>>;

/** Options of {@link checkFields}. */
export interface CheckFieldsOptions {
  /** Treat every field as optional, as for PATCH. @default false */
  partial?: boolean;
  /** Whether a field not in the schema is a problem. @default true */
  rejectUnknown?: boolean;
}

// RFC 3339 §5.6 date-time, e.g. 2026-11-21T14:42:00Z or with an offset; second 60 is a leap second.
const rfc3339 =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** RFC 3339 §5.7: the day must exist in its month, February 29 only in leap years. */
function isDateTime(value: string): boolean {
  const m = rfc3339.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return Number(m[3]) <= days;
}

function typeProblem(name: string, value: unknown, rule: FieldRule): string | undefined {
  switch (rule.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'a string';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'true or false';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? undefined
        : 'an object';
    case 'array':
      return Array.isArray(value) ? undefined : 'an array';
    case 'date-time':
      return typeof value === 'string' && isDateTime(value)
        ? undefined
        : 'an RFC 3339 date-time such as 2026-01-31T09:00:00Z';
    default:
      throw new TypeError(`Field "${name}" has an unknown type "${String(rule.type)}".`);
  }
}

function rangeProblem(value: unknown, rule: FieldRule): string | undefined {
  if (rule.enum && !rule.enum.includes(value as string)) {
    return `one of ${rule.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (rule.pattern && typeof value === 'string') {
    // A /g or /y pattern keeps state between test() calls; start each check afresh.
    rule.pattern.lastIndex = 0;
    if (!rule.pattern.test(value)) return `a string matching ${rule.pattern}`;
  }
  const size =
    typeof value === 'number'
      ? value
      : typeof value === 'string' || Array.isArray(value)
        ? value.length
        : undefined;
  if (size === undefined) return undefined;
  const unit = typeof value === 'string' ? ' characters' : Array.isArray(value) ? ' items' : '';
  if (rule.min !== undefined && size < rule.min) return `at least ${rule.min}${unit}`;
  if (rule.max !== undefined && size > rule.max) return `at most ${rule.max}${unit}`;
  return undefined;
}

/**
 * Checks a body against a schema and returns it when it fits; otherwise throws one 400 listing
 * every problem, one entry per field, each message naming the field.
 *
 * @example
 * ```ts
 * const book = checkFields(ctx.body, { title: { type: 'string', required: true, max: 200 } });
 * ```
 */
export function checkFields(
  body: unknown,
  schema: FieldSchema,
  options: CheckFieldsOptions = {},
): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest([
      {
        message:
          body === undefined
            ? 'The request needs a JSON object body.'
            : 'The request body must be a JSON object.',
        code: body === undefined ? ErrorCode.MissingBody : ErrorCode.InvalidField,
      },
    ]);
  }
  const record = body as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  for (const [name, rule] of Object.entries(schema)) {
    const value = record[name];
    if (value === undefined) {
      if (rule.required && !options.partial) {
        problems.push({
          message: `The field "${name}" is required.`,
          code: ErrorCode.MissingField,
        });
      }
      continue;
    }
    if (value === null) {
      if (!rule.nullable) problems.push({ message: `The field "${name}" must not be null.` });
      continue;
    }
    const wanted = typeProblem(name, value, rule) ?? rangeProblem(value, rule);
    if (wanted) problems.push({ message: `The field "${name}" must be ${wanted}.` });
  }
  if (options.rejectUnknown !== false) {
    for (const name of Object.keys(record)) {
      if (!Object.hasOwn(schema, name)) {
        problems.push({
          message: `The field "${name}" is not known.`,
          code: ErrorCode.UnknownField,
        });
      }
    }
  }
  if (problems.length > 0) throw invalidRequest(problems);
  return record;
}
