/** One field's rule turned, once, into a function that says what a value should have been. */
import type { FieldRule, FieldType } from './field-types.ts';

/**
 * What a compiled rule answers: `undefined` when the value fits, else the end of "must be …".
 *
 * @category Payloads
 */
export type ValueCheck = (value: unknown) => string | undefined;

const types: readonly FieldType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'object',
  'array',
  'date-time',
];
const ruleKeys = new Set([
  'type',
  'required',
  'nullable',
  'min',
  'max',
  'pattern',
  'enum',
  'example',
]);

// RFC 3339 §5.6 date-time, e.g. 2026-11-21T14:42:00Z or with an offset; second 60 is a leap second.
const rfc3339 =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** RFC 3339 §5.7: the day must exist in its month, February 29 only in leap years. */
export function isDateTime(value: string): boolean {
  const m = rfc3339.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return Number(m[3]) <= days;
}

/**
 * The number of characters (Unicode code points) of a string: an emoji outside the BMP is one
 * character, not the two UTF-16 units `length` counts; a lone surrogate counts as one.
 */
function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

const typeChecks: Record<FieldType, ValueCheck> = {
  string: (v) => (typeof v === 'string' ? undefined : 'a string'),
  integer: (v) => (Number.isInteger(v) ? undefined : 'an integer'),
  number: (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'a number'),
  boolean: (v) => (typeof v === 'boolean' ? undefined : 'true or false'),
  object: (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'an object',
  array: (v) => (Array.isArray(v) ? undefined : 'an array'),
  'date-time': (v) =>
    typeof v === 'string' && isDateTime(v)
      ? undefined
      : 'an RFC 3339 date-time such as 2026-01-31T09:00:00Z',
};

/**
 * Throws a `TypeError` that starts with `at` and says how to fix a field rule whose `type`,
 * bounds, `pattern` or `enum` is not well-formed. Shared by the field checks and the route
 * settings' start-up check, so both refuse the same rules with the same words.
 *
 * @category Payloads
 */
export function assertRuleValues(at: string, rule: object): asserts rule is FieldRule {
  const { type, min, max, pattern, enum: values } = rule as Record<string, unknown>;
  if (!types.includes(type as FieldType)) {
    throw new TypeError(
      `${at} has an unknown type "${String(type)}"; use one of ${types.join(', ')}.`,
    );
  }
  for (const [key, value] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || Number.isNaN(value))) {
      throw new TypeError(`${at}: \`${key}\` must be a number.`);
    }
  }
  if (pattern !== undefined && !(pattern instanceof RegExp)) {
    throw new TypeError(`${at}: \`pattern\` must be a RegExp.`);
  }
  if (values !== undefined && !Array.isArray(values)) {
    throw new TypeError(`${at}: \`enum\` must be an array of the allowed values.`);
  }
}

/** Throws a `TypeError` that names the field and the fix when a rule is not well-formed. */
function assertRule(name: string, rule: unknown): asserts rule is FieldRule {
  const at = `Field "${name}"`;
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    throw new TypeError(`${at} needs a rule object such as { type: 'string' }.`);
  }
  for (const key of Object.keys(rule)) {
    if (!ruleKeys.has(key)) {
      throw new TypeError(
        `${at} has an unknown rule key "${key}"; use ${[...ruleKeys].join(', ')}.`,
      );
    }
  }
  assertRuleValues(at, rule);
}

/** The size check of a rule with `min` or `max`: a number's value, a string's or array's length. */
function sizeCheck(min: number | undefined, max: number | undefined): ValueCheck {
  return (value) => {
    let size: number;
    let unit = '';
    if (typeof value === 'number') size = value;
    else if (typeof value === 'string') {
      size = codePointLength(value);
      unit = ' characters';
    } else if (Array.isArray(value)) {
      size = value.length;
      unit = ' items';
    } else return undefined;
    if (min !== undefined && size < min) return `at least ${min}${unit}`;
    if (max !== undefined && size > max) return `at most ${max}${unit}`;
    return undefined;
  };
}

/**
 * Compiles one rule into a check of a present, non-null value: its type first, then `enum`,
 * `pattern` and the bounds, in that order, reporting the first that fails.
 *
 * @category Payloads
 */
export function compileRule(name: string, rule: FieldRule): ValueCheck {
  assertRule(name, rule);
  const checks: ValueCheck[] = [typeChecks[rule.type]];
  if (rule.enum) {
    const allowed = new Set<unknown>(rule.enum);
    const wanted = `one of ${rule.enum.map((v) => JSON.stringify(v)).join(', ')}`;
    checks.push((value) => (allowed.has(value) ? undefined : wanted));
  }
  if (rule.pattern) {
    const wanted = `a string matching ${rule.pattern}`;
    const pattern = new RegExp(rule.pattern);
    checks.push((value) => {
      if (typeof value !== 'string') return undefined;
      // A /g or /y pattern keeps state between test() calls; start each check afresh.
      pattern.lastIndex = 0;
      return pattern.test(value) ? undefined : wanted;
    });
  }
  if (rule.min !== undefined || rule.max !== undefined) {
    checks.push(sizeCheck(rule.min, rule.max));
  }
  const check: ValueCheck =
    checks.length === 1
      ? checks[0]!
      : (value) => {
          for (const one of checks) {
            const wanted = one(value);
            if (wanted !== undefined) return wanted;
          }
          return undefined;
        };
  // An example that breaks its own rule would teach clients a 400 (rule 6: said at start-up).
  if (rule.example !== undefined && !(rule.example === null && rule.nullable)) {
    const wanted = rule.example === null ? 'not null' : check(rule.example);
    if (wanted !== undefined) {
      throw new TypeError(
        `Field "${name}": its example ${JSON.stringify(rule.example)} must be ${wanted}, as its rule says.`,
      );
    }
  }
  return check;
}
