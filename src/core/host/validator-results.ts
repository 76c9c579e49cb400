/**
 * What a host's validator middleware hands its hook (`@hono/zod-validator`,
 * `@hono/standard-validator`: a result with the schema's issues and the part it validated), as
 * the catalogue's 400: one wording for a failed schema, the same as a route's own schemas give.
 */
import type { ApiError } from '../errors/api-error.ts';
import { type RequestPart, schemaRejection } from '../validation/standard-schema.ts';

/**
 * What a validator middleware hands its hook.
 *
 * @category Host binding
 */
export interface ValidatorResult {
  /** Whether the value fits the schema. */
  readonly success: boolean;
  /** The schema's error when it does not. */
  readonly error?: ValidatorError | undefined;
  /** What was validated: `json`, `form`, `query`, `param`, `header` or `cookie`. */
  readonly target?: string | undefined;
}

/**
 * A validator's error: the schema's issues.
 *
 * @category Host binding
 */
export interface ValidatorError {
  /** Each problem, with a message and a path. */
  readonly issues?: readonly StandardIssue[] | undefined;
}

/**
 * One segment of an issue's path: a key, or an object that holds it.
 *
 * @category Host binding
 */
export type IssuePathSegment = PropertyKey | IssuePathKey;

/**
 * A path segment as an object (Standard Schema's `PathSegment`).
 *
 * @category Host binding
 */
export interface IssuePathKey {
  /** The key. */
  readonly key: PropertyKey;
}

/**
 * One issue of a schema's error, as Standard Schema and zod give it.
 *
 * @category Host binding
 */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where: keys and indexes from the root of the value. */
  readonly path?: readonly IssuePathSegment[] | undefined;
}

// The validators' targets, by the part of the request each is.
const parts: Readonly<Record<string, RequestPart>> = {
  json: 'body',
  form: 'body',
  query: 'query',
  param: 'params',
  header: 'headers',
  cookie: 'headers',
};

/**
 * The 400 for a validator's result that failed its schema (spec 2.11: one entry per issue, naming
 * where it is), or `undefined` when it passed.
 *
 * @category Host binding
 */
export function validatorRejection(result: ValidatorResult): ApiError | undefined {
  if (result.success) return undefined;
  const issues = (result.error?.issues ?? []) as Parameters<typeof schemaRejection>[1];
  const target = result.target ?? 'json';
  return schemaRejection(Object.hasOwn(parts, target) ? parts[target]! : 'body', issues);
}
