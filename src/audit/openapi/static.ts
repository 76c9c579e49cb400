/** Static checks of an OpenAPI document: path shapes and versions (spec 4.1, 9.1), wrapped lists (2.7), date-time formats (2.6), error schemas (7.1.5). */
import { checkPathShape } from '../checks/path-shape.ts';
import type { Findings } from '../report.ts';
import { type OpenApiDocument, pointer, resolveRef } from './load.ts';
import { serverPrefix } from './paths.ts';

type Schema = {
  type?: unknown;
  format?: unknown;
  properties?: Record<string, unknown>;
  items?: unknown;
  allOf?: unknown[];
};

const dateName =
  /(?:At|_at|Date|_date|Time|_time|Timestamp|_timestamp)$|^(?:date|time|timestamp|datetime)$/;

/** The JSON schema of a response, if it has one. */
function jsonSchema(doc: OpenApiDocument, response: unknown): Schema | undefined {
  const resolved = resolveRef(doc, response) as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  const content = resolved?.content;
  if (!content) return undefined;
  const key = Object.keys(content).find((k) => k === 'application/json' || /\+json$/.test(k));
  return key ? (resolveRef(doc, content[key]?.schema) as Schema | undefined) : undefined;
}

/** Date-named properties that are not `format: date-time` (or `date`) strings, with their path. */
function undatedProperties(
  doc: OpenApiDocument,
  schema: Schema | undefined,
  where = '',
  depth = 0,
): string[] {
  if (!schema || depth > 6) return [];
  const out: string[] = [];
  for (const part of schema.allOf ?? [])
    out.push(...undatedProperties(doc, resolveRef(doc, part) as Schema, where, depth + 1));
  if (schema.items)
    out.push(
      ...undatedProperties(doc, resolveRef(doc, schema.items) as Schema, `${where}[]`, depth + 1),
    );
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const prop = resolveRef(doc, raw) as Schema;
    const at = where ? `${where}.${name}` : name;
    if (
      dateName.test(name) &&
      !(prop?.type === 'string' && (prop.format === 'date-time' || prop.format === 'date'))
    ) {
      out.push(`${at} (${String(prop?.type)}${prop?.format ? `, ${String(prop.format)}` : ''})`);
    }
    out.push(...undatedProperties(doc, prop, at, depth + 1));
  }
  return out;
}

/** Whether a schema is the spec's error body: `errors`, a list of `{message: string, code: integer}`. */
function isErrorSchema(doc: OpenApiDocument, schema: Schema | undefined): boolean {
  const errors = resolveRef(doc, schema?.properties?.errors) as Schema | undefined;
  const entry = resolveRef(doc, errors?.items) as Schema | undefined;
  const message = resolveRef(doc, entry?.properties?.message) as Schema | undefined;
  const code = resolveRef(doc, entry?.properties?.code) as Schema | undefined;
  return errors?.type === 'array' && message?.type === 'string' && code?.type === 'integer';
}

/** Runs every static check on `doc`, naming each location as `source#/pointer`. */
export function checkDocument(findings: Findings, doc: OpenApiDocument, source: string): void {
  const prefix = serverPrefix(doc);
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    checkPathShape(findings, `${prefix}${template}`, `${source}${pointer('paths', template)}`);
    for (const [method, raw] of Object.entries(item ?? {})) {
      const operation = raw as { responses?: Record<string, unknown> };
      if (!operation?.responses || typeof operation.responses !== 'object') continue;
      const at = (...rest: string[]) =>
        `${source}${pointer('paths', template, method, 'responses', ...rest)}`;
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = jsonSchema(doc, response);
        if (!schema) continue;
        if (/^2/.test(status)) {
          if (method === 'get') {
            findings.decide(
              '2.7',
              at(status),
              schema.type === 'array' ? 'the response schema is a bare array' : undefined,
              'the response schema is an object',
            );
          }
          const undated = undatedProperties(doc, schema);
          if (undated.length > 0)
            findings.fail(
              '2.6',
              at(status),
              `date fields without format: date-time: ${undated.slice(0, 3).join(', ')}`,
            );
        } else if (/^[45]|^default$/i.test(status)) {
          findings.decide(
            '7.1.5',
            at(status),
            isErrorSchema(doc, schema)
              ? undefined
              : 'the error schema is not {"errors":[{"message": string, "code": integer}]}',
            "the error schema is the spec's",
          );
        }
      }
    }
  }
}
