/**
 * Route settings checked with any Standard Schema v1 (zod 4, valibot 1, arktype 2, TypeBox
 * through its adapter): the schema's issues become the spec's 400 body, one entry per issue,
 * each naming its path (`tags[0].name`). Only the types of `@standard-schema/spec` are used:
 * the library depends on no schema library.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type ApiError, maxErrorEntries, moreErrorsEntry } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { isPromise, type Step } from '../kernel/steps.ts';

export type { StandardSchemaV1 };

/**
 * The parts of a request a route may check with a schema.
 *
 * @category Payloads
 */
export type RequestPart = 'body' | 'query' | 'params' | 'headers';

const codes: Record<RequestPart, number> = {
  body: ErrorCode.InvalidBody,
  query: ErrorCode.InvalidQuery,
  params: ErrorCode.InvalidParams,
  headers: ErrorCode.InvalidHeaders,
};
const nouns: Record<RequestPart, string> = {
  body: 'The field',
  query: 'The query parameter',
  params: 'The path parameter',
  headers: 'The header',
};

/**
 * Whether `value` is a Standard Schema v1 (it has `~standard` with `version: 1` and `validate`).
 *
 * @category Payloads
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } })['~standard'];
  return props !== undefined && props.version === 1 && typeof props.validate === 'function';
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * An issue's path as a client reads it: `tags[0].name`, `["odd key"]`; empty for the root.
 *
 * @category Payloads
 */
export function issuePath(path: StandardSchemaV1.Issue['path']): string {
  let out = '';
  for (const item of path ?? []) {
    const key = typeof item === 'object' && item !== null ? item.key : item;
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && identifier.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * The 400 for a part of the request that failed its schema: the spec's error body with one entry
 * per issue, each naming where it is (at most 100 entries: the last says how many more). For a
 * host's validators (`@hono/zod-validator`'s hook) as for a route's own schemas.
 *
 * @category Host binding
 */
export function schemaRejection(
  part: RequestPart,
  issues: readonly StandardSchemaV1.Issue[],
): ApiError {
  const code = codes[part];
  const problems: FieldProblem[] = [];
  for (const issue of issues.slice(0, maxErrorEntries - 1)) {
    const path = issuePath(issue.path);
    const message = typeof issue.message === 'string' ? issue.message : 'is not valid';
    problems.push({
      message:
        path === ''
          ? `${part === 'body' ? 'The request body' : `The ${part}`}: ${message}`
          : `${nouns[part]} "${path}": ${message}`,
      code,
    });
  }
  if (issues.length > maxErrorEntries - 1)
    problems.push(moreErrorsEntry(issues.length - problems.length));
  return invalidRequest(problems);
}

/**
 * A checker for one part of a request: the schema's output when the value fits, else a thrown
 * 400 listing every issue. An async schema gives a promise.
 *
 * @category Payloads
 */
export function schemaCheck(
  schema: StandardSchemaV1,
  part: RequestPart,
): (value: unknown) => Step<unknown> {
  const validate = schema['~standard'].validate;
  const settle = (result: StandardSchemaV1.Result<unknown>): unknown => {
    if (result.issues) throw schemaRejection(part, result.issues);
    return result.value;
  };
  return (value) => {
    const result = validate(value);
    return isPromise(result) ? result.then(settle) : settle(result);
  };
}

/**
 * The query string as a schema reads it: an object of strings, a repeated name as an array of
 * its values in order (`?tag=a&tag=b` → `{ tag: ['a', 'b'] }`).
 *
 * @category Payloads
 */
export function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of query) {
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[name] = [seen, value];
  }
  return out;
}
