/** Static checks of an OpenAPI document: path shapes and versions (spec 4.1, 9.1), wrapped lists (2.7), date-time formats (2.6), error schemas (7.1.5). */
import { isRfc3339 } from '../checks/dates.ts';
import { pagingNameProblem } from '../checks/paging.ts';
import { checkPathShape } from '../checks/path-shape.ts';
import type { Findings, Place } from '../report.ts';
import { flatten } from './generate.ts';
import { listSchemaVerdict } from './paging.ts';
import { type Operation, parametersOf, serverPrefix } from './paths.ts';
import { type OpenApiDocument, pointer, resolveRef } from './ref.ts';

type Schema = {
  type?: unknown;
  format?: unknown;
  example?: unknown;
  properties?: Record<string, unknown>;
  items?: unknown;
  allOf?: unknown[];
  oneOf?: unknown[];
  anyOf?: unknown[];
};

const dateName =
  /(?:At|_at|Date|_date|Time|_time|Timestamp|_timestamp)$|^(?:date|time|timestamp|datetime)$/;

/** The JSON schema of a response, if it has one. */
function jsonSchema(doc: OpenApiDocument, response: unknown): unknown {
  const resolved = resolveRef(doc, response) as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  const content = resolved?.content;
  if (!content) return undefined;
  const key = Object.keys(content).find((k) => k === 'application/json' || /\+json$/.test(k));
  return key ? content[key]?.schema : undefined;
}

/** The alternatives of a schema (`oneOf`/`anyOf`), each flattened, or the schema itself. */
function alternatives(doc: OpenApiDocument, schema: Schema | undefined): Schema[] {
  const options = (schema?.oneOf ?? schema?.anyOf) as unknown[] | undefined;
  if (!Array.isArray(options) || options.length === 0) return schema ? [schema] : [];
  return options.flatMap((o) => {
    const flat = flatten(doc, o) as Schema | undefined;
    return flat ? [flat] : [];
  });
}

/**
 * Date-named properties whose schema says they are not RFC 3339 text: a number (an epoch time),
 * or a string whose example is no RFC 3339 date. A string without `format: date-time` says
 * nothing either way (its values are judged live), so it is not reported.
 */
export function undatedProperties(
  doc: OpenApiDocument,
  raw: unknown,
  where = '',
  depth = 0,
): string[] {
  if (depth > 6) return [];
  const out: string[] = [];
  for (const schema of alternatives(doc, flatten(doc, raw) as Schema | undefined)) {
    if (schema.items) out.push(...undatedProperties(doc, schema.items, `${where}[]`, depth + 1));
    for (const [name, rawProp] of Object.entries(schema.properties ?? {})) {
      const props = alternatives(doc, flatten(doc, rawProp) as Schema | undefined);
      const at = where ? `${where}.${name}` : name;
      const types = (p: Schema) => (Array.isArray(p.type) ? p.type : [p.type]);
      const wrong = props.find(
        (p) =>
          types(p).some((t) => t === 'integer' || t === 'number') ||
          (typeof p.example === 'string' && !isRfc3339(p.example)),
      );
      if (dateName.test(name) && wrong) {
        const shown =
          typeof wrong.example === 'string'
            ? `example ${JSON.stringify(wrong.example)}`
            : String(wrong.type);
        out.push(`${at} (${shown})`);
      }
      out.push(...undatedProperties(doc, rawProp, at, depth + 1));
    }
  }
  return [...new Set(out)];
}

/**
 * Whether a schema is the spec's error body: `errors`, a list of `{message: string, code:
 * integer}`, with `allOf` parts merged (`allOf: [Error, {…}]`), `$ref`s followed, and each
 * `oneOf`/`anyOf` alternative one too.
 */
export function isErrorSchema(doc: OpenApiDocument, raw: unknown): boolean {
  const options = alternatives(doc, flatten(doc, raw) as Schema | undefined);
  return (
    options.length > 0 &&
    options.every((schema) => {
      const errors = flatten(doc, schema.properties?.errors) as Schema | undefined;
      const entry = flatten(doc, errors?.items) as Schema | undefined;
      const message = flatten(doc, entry?.properties?.message) as Schema | undefined;
      const code = flatten(doc, entry?.properties?.code) as Schema | undefined;
      return errors?.type === 'array' && message?.type === 'string' && code?.type === 'integer';
    })
  );
}

/** Whether a schema, its `allOf` merged, is a bare array. */
export function isArraySchema(doc: OpenApiDocument, raw: unknown): boolean {
  const schema = flatten(doc, raw) as Schema | undefined;
  return (
    schema?.type === 'array' ||
    (Array.isArray(schema?.type) &&
      schema.type.includes('array') &&
      !schema.type.includes('object'))
  );
}

/**
 * The schema of a success: a list is an object (2.7) that says whether more follows (2.8), and
 * dates are RFC 3339 text (2.6).
 */
function checkSuccessSchema(
  findings: Findings,
  doc: OpenApiDocument,
  method: string,
  schema: unknown,
  query: readonly string[],
  where: string,
  place: Place,
): void {
  const verdict = method === 'get' ? listSchemaVerdict(doc, schema, query) : undefined;
  if (verdict?.problem !== undefined) {
    findings.fail('2.8', where, verdict.problem, undefined, undefined, verdict.strength, place);
  } else if (verdict) findings.pass('2.8', where, verdict.pass, undefined, place);
  if (method === 'get') {
    findings.decide(
      '2.7',
      where,
      isArraySchema(doc, schema) ? 'the response schema is a bare array' : undefined,
      'the response schema is an object',
      undefined,
      undefined,
      undefined,
      place,
    );
  }
  const undated = undatedProperties(doc, schema);
  if (undated.length > 0)
    findings.fail(
      '2.6',
      where,
      `date fields that are not RFC 3339 text: ${undated.slice(0, 3).join(', ')}`,
      undefined,
      undefined,
      undefined,
      place,
    );
}

/** Runs every static check on `doc`, naming each location as `source#/pointer`. */
export function checkDocument(findings: Findings, doc: OpenApiDocument, source: string): void {
  const prefix = serverPrefix(doc);
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const path = `${prefix}${template}`;
    checkPathShape(findings, path, `${source}${pointer('paths', template)}`, path);
    for (const [method, raw] of Object.entries(item ?? {})) {
      const operation = raw as Operation;
      if (!operation?.responses || typeof operation.responses !== 'object') continue;
      const at = (...rest: string[]) =>
        `${source}${pointer('paths', template, method, 'responses', ...rest)}`;
      const place = { method: method.toUpperCase(), path };
      const query = parametersOf(doc, item as Record<string, unknown>, operation)
        .filter((p) => p.in === 'query' && typeof p.name === 'string')
        .map((p) => p.name as string);
      for (const name of query) {
        const problem = pagingNameProblem(name);
        if (problem)
          findings.fail(
            '4.4',
            `${source}${pointer('paths', template, method, 'parameters')}`,
            problem,
            undefined,
            undefined,
            undefined,
            place,
          );
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = jsonSchema(doc, response);
        if (schema === undefined || schema === null) continue;
        if (/^2/.test(status)) {
          checkSuccessSchema(findings, doc, method, schema, query, at(status), place);
        } else if (/^[45]|^default$/i.test(status)) {
          findings.decide(
            '7.1.5',
            at(status),
            isErrorSchema(doc, schema)
              ? undefined
              : 'the error schema is not {"errors":[{"message": string, "code": integer}]}',
            "the error schema is the spec's",
            undefined,
            undefined,
            undefined,
            place,
          );
        }
      }
    }
  }
}
