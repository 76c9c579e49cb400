/**
 * One response against the operation that declares it (OpenAPI 3.1 §4.8.16-4.8.17): its status,
 * its media type, its headers and its JSON body's schema (rules `openapi.status`,
 * `openapi.media-type`, `openapi.headers`, `openapi.schema`).
 */
import { isPageMedia } from '../checks/negotiation.ts';
import type { Exchange } from '../client.ts';
import type { AuditContext } from '../context.ts';
import { excerpt, isJsonType, isParsed, jsonOf, mediaType } from '../inspect.ts';
import type { Place } from '../report.ts';
import type { Operation } from './paths.ts';
import { resolveRef } from './ref.ts';
import { validate } from './schema.ts';

type Response = {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, unknown>;
};

/** The declared response for a status: exact, then `4XX`, then `default` (OpenAPI §4.8.16). */
function declaredFor(op: Operation, status: number): [string, Response] | undefined {
  const responses =
    op.responses && typeof op.responses === 'object'
      ? op.responses
      : ({} as Record<string, unknown>);
  for (const key of [
    String(status),
    `${String(status)[0]}XX`,
    `${String(status)[0]}xx`,
    'default',
  ]) {
    if (key in responses) return [key, responses[key] as Response];
  }
  return undefined;
}

/** Whether a response media type matches a declared content key (`application/*`, `*\/*`). */
function matches(type: string, key: string): boolean {
  const declared = key.split(';')[0]!.trim().toLowerCase();
  if (declared === '*/*' || declared === type) return true;
  return declared.endsWith('/*') && type.startsWith(declared.slice(0, -1));
}

/**
 * Whether the document declares the response's media type for its status: an XML error on an
 * `.xml` route is then the service keeping its word, judged by the document, not by the JSON
 * error body of spec 7.1.5.
 */
export function declaresType(ctx: AuditContext, op: Operation, ex: Exchange): boolean {
  const found = declaredFor(op, ex.status);
  if (!found) return false;
  const response = resolveRef(ctx.doc!, found[1]) as Response | undefined;
  const content =
    response?.content && typeof response.content === 'object' ? response.content : undefined;
  const type = mediaType(ex);
  return content !== undefined && Object.keys(content).some((key) => matches(type, key));
}

/**
 * Rule `openapi.media-type`: the response's media type is one its status declares. The schema
 * declared for it, when there is one.
 */
function checkMediaType(
  ctx: AuditContext,
  ex: Exchange,
  type: string,
  content: Response['content'],
  place: Place,
): unknown {
  const { findings } = ctx;
  if (content && Object.keys(content).length > 0 && ex.body !== '') {
    const key = Object.keys(content).find((k) => matches(type, k));
    if (key === undefined) {
      findings.fail(
        'openapi.media-type',
        ex.request,
        `${type || 'an untyped body'} is not declared for ${ex.status} (declared: ${Object.keys(content).join(', ')})`,
        ex.status,
        undefined,
        undefined,
        place,
      );
    } else {
      findings.pass(
        'openapi.media-type',
        ex.request,
        `${type} is declared for ${ex.status}`,
        ex.status,
        place,
      );
      return content[key]?.schema;
    }
  }
  return undefined;
}

/** Rule `openapi.headers`: the response's headers fit those its status declares. */
function checkHeaders(
  ctx: AuditContext,
  ex: Exchange,
  response: Response | undefined,
  place: Place,
): void {
  const doc = ctx.doc!;
  const headers = response?.headers && typeof response.headers === 'object' ? response.headers : {};
  const wrong: string[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type') continue;
    const header = resolveRef(doc, raw) as { required?: boolean; schema?: unknown } | undefined;
    const value = ex.headers.get(name);
    if (value === null) {
      if (header?.required === true) wrong.push(`${name} is required but absent`);
      continue;
    }
    if (header?.schema === undefined) continue;
    const parsed = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    const problems = validate(doc, header.schema, parsed);
    if (problems.length > 0 && validate(doc, header.schema, value).length > 0) {
      wrong.push(`${name}: ${problems[0]!.replace(/^\$: /, '')}`);
    }
  }
  if (Object.keys(headers).length > 0) {
    ctx.findings.decide(
      'openapi.headers',
      ex.request,
      wrong.length > 0 ? `declared headers: ${wrong.join('; ')}` : undefined,
      'the declared headers fit',
      ex.status,
      undefined,
      undefined,
      place,
    );
  }
}

/** Checks one response against its operation's declared responses. */
export function checkConformance(
  ctx: AuditContext,
  op: Operation,
  ex: Exchange,
  where: string,
  place: Place,
): void {
  const { findings } = ctx;
  const doc = ctx.doc!;
  const found = declaredFor(op, ex.status);
  const declared = Object.keys(
    op.responses && typeof op.responses === 'object' ? op.responses : {},
  );
  if (!found) {
    findings.fail(
      'openapi.status',
      ex.request,
      `${ex.status} is not declared for ${where} (declared: ${declared.join(', ') || 'none'})`,
      ex.status,
      undefined,
      undefined,
      place,
    );
    return;
  }
  findings.pass(
    'openapi.status',
    ex.request,
    `${ex.status} is declared (${found[0]})`,
    ex.status,
    place,
  );
  const type = mediaType(ex);
  if (isPageMedia(type)) {
    // A documentation page or its assets are not API data: not held to the document's types.
    findings.skip(
      'openapi.media-type',
      ex.request,
      `a page or asset (${type}), not API data`,
      place,
    );
    return;
  }
  const response = resolveRef(doc, found[1]) as Response | undefined;
  const content =
    response?.content && typeof response.content === 'object' ? response.content : undefined;
  const schema = checkMediaType(ctx, ex, type, content, place);
  checkHeaders(ctx, ex, response, place);
  const body = jsonOf(ex);
  if (schema !== undefined && isJsonType(type) && isParsed(body)) {
    const problems = validate(doc, schema, body);
    findings.decide(
      'openapi.schema',
      ex.request,
      problems.length > 0
        ? `the body does not fit the declared schema: ${problems.join('; ')}`
        : undefined,
      'the body fits the declared schema',
      ex.status,
      problems.length > 0 ? excerpt(ex.body) : undefined,
      undefined,
      place,
    );
  }
}
