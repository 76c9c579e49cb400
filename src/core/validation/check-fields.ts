/** A small field checker for request bodies that reports every problem at once (spec 7.1.4). */
import { maxErrorEntries, moreErrorsEntry } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { assertKnownKeys } from '../internal/options.ts';
import { compileRule, type ValueCheck } from './field-rule.ts';
import type { FieldSchema } from './field-types.ts';

/**
 * Options of {@link compileFields}.
 *
 * @category Payloads
 */
export interface CheckFieldsOptions {
  /** Treat every field as optional, as for PATCH. @default false */
  partial?: boolean;
  /** Whether a field not in the schema is a problem. @default true */
  rejectUnknown?: boolean;
}

/**
 * A schema compiled by {@link compileFields}: returns the body when it fits, else throws the 400.
 *
 * @category Payloads
 */
export type FieldChecker = (body: unknown) => Record<string, unknown>;

interface CompiledField {
  name: string;
  required: boolean;
  nullable: boolean;
  check: ValueCheck;
}

function assertOptions(options: CheckFieldsOptions): void {
  assertKnownKeys('checkFields', options, ['partial', 'rejectUnknown']);
  for (const key of ['partial', 'rejectUnknown'] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`checkFields: \`${key}\` must be true or false; got ${String(value)}.`);
    }
  }
}

function notAnObject(body: unknown): never {
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

/**
 * Compiles a schema once, at start-up, into a function that checks a body: it returns the body
 * itself when it fits, else throws one 400 listing every problem, one entry per field, in
 * schema order and then the unknown fields. A malformed schema or option is a `TypeError` here,
 * not at the first request. The schema is read once: later changes to it are not seen.
 *
 * After `maxErrorEntries` problems the check stops: no further field is read and no further
 * message built, so 90,000 unknown keys give 101 entries, not 90,000. The last entry, code
 * `ErrorCode.MoreErrors`, says more problems were found without counting them, since the rest
 * was never checked.
 *
 * @example
 * ```ts
 * import { compileFields, created, type RequestContext } from 'api-conventions';
 *
 * const checkBook = compileFields({ title: { type: 'string', required: true, max: 200 } });
 * const createBook = (ctx: RequestContext) => {
 *   const book = checkBook(ctx.body); // 400 with one entry per problem
 *   return created('/v1/books/1', book);
 * };
 * ```
 *
 * @category Payloads
 */
export function compileFields(schema: FieldSchema, options: CheckFieldsOptions = {}): FieldChecker {
  assertOptions(options);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError(
      "checkFields: the schema must map field names to rules such as { type: 'string' }.",
    );
  }
  const partial = options.partial === true;
  const rejectUnknown = options.rejectUnknown !== false;
  const fields: CompiledField[] = Object.entries(schema).map(([name, rule]) => ({
    name,
    check: compileRule(name, rule),
    required: rule.required === true && !partial,
    nullable: rule.nullable === true,
  }));
  const known = new Set(fields.map((f) => f.name));

  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) notAnObject(body);
    const record = body as Record<string, unknown>;
    const problems: FieldProblem[] = [];
    // Stop at the cap: the work, not only the response, stays bounded (spec 7.1.5).
    const add = (problem: FieldProblem): boolean => {
      if (problems.length < maxErrorEntries) {
        problems.push(problem);
        return true;
      }
      problems.push(moreErrorsEntry(undefined));
      return false;
    };
    let open = true;
    for (let i = 0; i < fields.length && open; i++) {
      const { name, required, nullable, check } = fields[i]!;
      // Own keys only: a field named "constructor" is missing, not Object.prototype's function.
      const value = Object.hasOwn(record, name) ? record[name] : undefined;
      if (value === undefined) {
        if (required) {
          open = add({ message: `The field "${name}" is required.`, code: ErrorCode.MissingField });
        }
      } else if (value === null) {
        if (!nullable) open = add({ message: `The field "${name}" must not be null.` });
      } else {
        const wanted = check(value);
        if (wanted !== undefined) open = add({ message: `The field "${name}" must be ${wanted}.` });
      }
    }
    if (rejectUnknown && open) {
      // Listing the keys is one native pass the parse already paid for; the messages and entries
      // built per key are what made 91,919 keys cost 0.35 s, and those stop at the cap.
      for (const name of Object.keys(record)) {
        if (known.has(name)) continue;
        open = add({ message: `The field "${name}" is not known.`, code: ErrorCode.UnknownField });
        if (!open) break;
      }
    }
    if (problems.length > 0) throw invalidRequest(problems);
    return record;
  };
}

/**
 * Checks a body against a schema and returns it when it fits; otherwise throws one 400 listing
 * every problem, one entry per field, each message naming the field. It compiles the schema on
 * every call: for a schema used again and again, compile it once with {@link compileFields}.
 *
 * @example
 * ```ts
 * import { checkFields } from './check-fields.ts';
 *
 * const book = checkFields({ title: 'Emma' }, { title: { type: 'string', required: true, max: 200 } });
 * ```
 *
 * @category Payloads
 */
export function checkFields(
  body: unknown,
  schema: FieldSchema,
  options: CheckFieldsOptions = {},
): Record<string, unknown> {
  return compileFields(schema, options)(body);
}
