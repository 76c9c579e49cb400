/**
 * The ruleset's functions: each reads one place of the document (Spectral hands it with `$ref`s
 * resolved) with the same code as the auditor's static checks, and returns what is wrong there.
 */
import { pagingNameProblem } from '../audit/checks/paging.ts';
import { pathShapeProblems } from '../audit/checks/path-shape.ts';
import { listSchemaVerdict } from '../audit/openapi/paging.ts';
import { type Parameter, serverPrefix } from '../audit/openapi/paths.ts';
import type { OpenApiDocument } from '../audit/openapi/ref.ts';
import { isArraySchema, isErrorSchema, undatedProperties } from '../audit/openapi/static.ts';
import type { Strength } from '../audit/strength.ts';

/** A result of a function: what is wrong, and where under the checked place. */
export interface SpectralResult {
  /** What is wrong. */
  message: string;
  /** Where, as keys from the document's root; the checked place when absent. */
  path?: (string | number)[];
}

/** What Spectral tells a function besides the value it checks. */
export interface SpectralContext {
  /** Where the checked value is in the document. */
  path: (string | number)[];
  /** The document; `data` is the parsed document, `$ref`s unresolved. */
  document: {
    /** The parsed document. */
    data: unknown;
  };
}

/** A function of the ruleset, in the shape Spectral calls. */
export type SpectralFunction<Options = null> = (
  input: unknown,
  options: Options,
  context: SpectralContext,
) => SpectralResult[];

// The value Spectral hands is resolved already: no document is needed to follow `$ref`s.
const resolved: OpenApiDocument = {};

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/**
 * A path key's rule of spec 4.1 or 9.1 (`options.section`), with the first server's base path.
 *
 * @example
 * ```ts
 * // .spectral.mjs: the version rule (a preferred one, so a warning) made an error of its own
 * import { conventions, pathShape } from 'api-conventions/spectral';
 *
 * export default {
 *   extends: [conventions],
 *   rules: {
 *     'team-version-in-path': {
 *       message: '{{error}}',
 *       severity: 'error',
 *       given: '$.paths[*]~',
 *       then: { function: pathShape, functionOptions: { section: '9.1' } },
 *     },
 *   },
 * };
 * ```
 */
export const pathShape: SpectralFunction<{
  /** The spec rule to check: `4.1.2` to `4.1.6`, or `9.1`. */
  section: string;
}> = (input, options, context) => {
  if (typeof input !== 'string') return [];
  const prefix = serverPrefix((asObject(context.document.data) ?? {}) as OpenApiDocument);
  const problem = pathShapeProblems(`${prefix}${input}`).get(options.section);
  return problem ? [{ message: `${input}: ${problem}` }] : [];
};

/** A query parameter's name is spec 4.4's for what it asks (`page`, not `_page`). */
export const pagingName: SpectralFunction = (input) => {
  const problem = typeof input === 'string' ? pagingNameProblem(input) : undefined;
  return problem ? [{ message: problem }] : [];
};

/** A GET's 2xx JSON schema is an object, never a bare array (spec 2.7). */
export const listEnvelope: SpectralFunction = (input) =>
  isArraySchema(resolved, input)
    ? [{ message: 'the response schema is a bare array: wrap the list in an object' }]
    : [];

/** A 4xx, 5xx or default JSON schema is the spec's error body (spec 7.1.5). */
export const errorBody: SpectralFunction = (input) =>
  isErrorSchema(resolved, input)
    ? []
    : [{ message: 'the error schema is not {"errors":[{"message": string, "code": integer}]}' }];

/** Date-named properties of a 2xx schema are RFC 3339 text, not epoch numbers (spec 2.6). */
export const dateFormat: SpectralFunction = (input) => {
  const undated = undatedProperties(resolved, input);
  return undated.length > 0
    ? [{ message: `date fields that are not RFC 3339 text: ${undated.slice(0, 3).join(', ')}` }]
    : [];
};

/**
 * A paged list's 2xx schema says whether a next page exists (spec 2.8): `strength` `required`
 * reports a list with no flag, `pattern` a flag not named hasNext. Checked on a path item.
 */
export const pagedList: SpectralFunction<{
  /** `required`: a list with no flag; `pattern`: a flag not named hasNext. */
  strength: Strength;
}> = (input, options, context) => {
  const item = asObject(input);
  const get = asObject(item?.get);
  if (!get) return [];
  const parameters = [
    ...(Array.isArray(item?.parameters) ? item.parameters : []),
    ...(Array.isArray(get.parameters) ? get.parameters : []),
  ] as Parameter[];
  const query = parameters
    .filter((p) => p?.in === 'query' && typeof p.name === 'string')
    .map((p) => p.name as string);
  const results: SpectralResult[] = [];
  for (const [status, raw] of Object.entries(asObject(get.responses) ?? {})) {
    if (!/^2/.test(status)) continue;
    for (const [type, media] of Object.entries(asObject(asObject(raw)?.content) ?? {})) {
      if (!/json/.test(type)) continue;
      const verdict = listSchemaVerdict(resolved, asObject(media)?.schema, query);
      if (verdict?.problem !== undefined && verdict.strength === options.strength) {
        results.push({
          message: verdict.problem,
          path: [...context.path, 'get', 'responses', status, 'content', type, 'schema'],
        });
      }
    }
  }
  return results;
};

// Media types that say JSON without being application/json or a +json type.
const looseJson = /^(?:text\/(?:x-)?json|application\/x-json)$/i;

/**
 * Each content key is a correct media type (spec 4.6): JSON as `application/json` or a `+json`
 * type, and a vendor type built on JSON with its `+json` suffix.
 */
export const mediaType: SpectralFunction = (input) => {
  const results: SpectralResult[] = [];
  for (const [type, media] of Object.entries(asObject(input) ?? {})) {
    const base = type.split(';')[0]!.trim();
    const schema = asObject(asObject(media)?.schema);
    const json = schema?.type === 'object' || schema?.type === 'array' || schema?.properties;
    if (looseJson.test(base)) {
      results.push({ message: `${base} is not a JSON media type: use application/json` });
    } else if (/^application\/vnd\./i.test(base) && !/\+/.test(base) && json) {
      results.push({ message: `${base} carries JSON: a vendor type built on JSON ends in +json` });
    }
  }
  return results;
};

/** Whether a scheme is OAuth 2.0 (RFC 6749) or its bearer token (RFC 6750). */
function isOAuth(scheme: Record<string, unknown>): boolean {
  const type = String(scheme.type);
  const http = String(scheme.scheme ?? '').toLowerCase();
  return type === 'oauth2' || type === 'openIdConnect' || (type === 'http' && http === 'bearer');
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The operations authenticate with OAuth 2.0 (spec 5.1): a scheme they accept that is an API key
 * or HTTP Basic is reported where it is declared. The OAuth endpoints are left out (the token
 * endpoint, `/oauth2/introspect`, `/oauth2/revoke`): their clients authenticate with Basic
 * credentials (spec 4.9, RFC 6749 §2.3.1). Checked on the document.
 */
export const oauthScheme: SpectralFunction = (input) => {
  const doc = asObject(input);
  const schemes = asObject(asObject(doc?.components)?.securitySchemes) ?? {};
  const users = new Map<string, string[]>();
  for (const [path, raw] of Object.entries(asObject(doc?.paths) ?? {})) {
    if (/\/oauth2?\/[^/]+$|\/token$/.test(path)) continue;
    for (const method of methods) {
      const op = asObject(asObject(raw)?.[method]);
      if (!op) continue;
      const requirements = (op.security ?? doc?.security ?? []) as unknown[];
      for (const requirement of Array.isArray(requirements) ? requirements : []) {
        for (const name of Object.keys(asObject(requirement) ?? {})) {
          users.set(name, [...(users.get(name) ?? []), `${method.toUpperCase()} ${path}`]);
        }
      }
    }
  }
  const results: SpectralResult[] = [];
  for (const [name, used] of users) {
    const scheme = asObject(schemes[name]);
    if (!scheme || isOAuth(scheme)) continue;
    const what =
      scheme.type === 'apiKey'
        ? `an API key in the ${String(scheme.in)}`
        : `${String(scheme.type)} ${String(scheme.scheme ?? '')}`.trim();
    results.push({
      message: `${name} is ${what}, not OAuth 2.0 (RFC 6749), and ${used[0]}${used.length > 1 ? ` and ${used.length - 1} more` : ''} accept it`,
      path: ['components', 'securitySchemes', name],
    });
  }
  return results;
};
