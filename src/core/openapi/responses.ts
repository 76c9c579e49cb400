/**
 * An operation's responses (OpenAPI 3.1 §4.8.16): its successes, each status the route declares
 * with its schema and headers (none on 204), the errors the pipeline can answer there, and what
 * the route says of itself.
 */
import type { RouteInfo } from '../kernel/route-table.ts';
import { type Build, contentOf, headerRefs, schemaOf } from './build.ts';
import { errorResponseOf, errorStatusesOf } from './errors.ts';
import {
  cachingHeaders,
  corsHeader,
  deprecationHeaders,
  locationHeader,
  rateLimitHeaders,
  varyHeader,
} from './headers.ts';
import type { JsonSchema } from './json-schema.ts';
import type { OpenApiResponse } from './route-config.ts';
import { selectable } from './selection.ts';

const successWords: Record<string, string> = {
  '200': 'OK.',
  '201': 'Created: the new resource, at Location (RFC 9110 §15.3.2).',
  '202': 'Accepted: the work goes on; its status is at Location (RFC 9110 §15.3.3, spec 4.3).',
  '204': 'No content (RFC 9110 §15.3.5).',
  '2XX': 'Success: the status the handler chose, with its body.',
};

function successHeaders(route: RouteInfo, status: string, b: Build) {
  const { features } = b;
  const headers: Record<string, unknown> = {};
  if (status === '201') headers.Location = locationHeader('The new resource.');
  if (status === '202') headers.Location = locationHeader('The status of the work.');
  if (features.caching && route.method === 'GET' && status === '200') {
    Object.assign(headers, cachingHeaders);
  }
  if (features.negotiation && route.method !== 'DELETE') headers.Vary = varyHeader;
  if (features.cors) headers['Access-Control-Allow-Origin'] = corsHeader;
  if (features.rateLimit) Object.assign(headers, rateLimitHeaders);
  if (route.config.deprecation !== undefined) Object.assign(headers, deprecationHeaders);
  return headerRefs(headers, b);
}

/**
 * The success statuses of `route`: those its `response` schemas (or its host's) name, and those
 * its own responses give; else 200 for a GET and, for another method, whatever the handler
 * chooses (`2XX`: a value is 200, `created()` 201, `accepted()` 202) or 204 without a body.
 */
function successStatuses(route: RouteInfo): string[] {
  const declared = new Set<string>();
  for (const status of Object.keys(route.config.response ?? {})) declared.add(status);
  for (const status of Object.keys(route.schemas?.response ?? {})) {
    const normal = status.toUpperCase();
    if (/^[23]/.test(normal)) declared.add(normal);
  }
  const own = Object.keys(route.config.openapi?.responses ?? {});
  const ownSuccess = own.filter((s) => s.startsWith('2'));
  // A redirect the route declares is its answer, on a method other than GET (a sign-in form).
  const ownAnswer = route.method === 'GET' ? ownSuccess : own.filter((s) => /^[23]/.test(s));
  if (declared.size === 0 && ownAnswer.length === 0) {
    return route.method === 'GET' ? ['200'] : ['2XX', '204'];
  }
  return [...declared];
}

/** The schema of one success status: the route's `response` schema, its host's, or anything. */
function successSchema(route: RouteInfo, status: string, b: Build): JsonSchema {
  const given = (route.config.response as Record<string, unknown> | undefined)?.[status];
  if (given !== undefined) return schemaOf(given, 'output', b);
  const host = route.schemas?.response;
  const hostSchema = host?.[status] ?? host?.[status.toLowerCase()];
  if (hostSchema !== undefined) return schemaOf(hostSchema, 'output', b);
  return {};
}

/**
 * A route's own response, its JSON body offered in every JSON type the route answers in (the
 * vendor tree's too), its `$defs` lifted into components.
 */
function ownResponse(response: OpenApiResponse, types: readonly string[], b: Build) {
  if (response.content === undefined) return response;
  const content: Record<string, unknown> = {};
  for (const [type, media] of Object.entries(response.content)) {
    content[type] = { ...media, schema: b.schemas.lift(media.schema as JsonSchema) };
  }
  const json = content['application/json'];
  if (json !== undefined) {
    for (const t of types) if (t.endsWith('+json') && content[t] === undefined) content[t] = json;
  }
  return { ...response, content };
}

/** Every response of `route`'s operation, in status order, `default` last. */
export function responsesOf(route: RouteInfo, secured: boolean, b: Build): Record<string, unknown> {
  const types = route.schemas?.response !== undefined ? ['application/json'] : b.typesOf(route);
  const examples = route.config.openapi?.example?.responses ?? {};
  const responses: Record<string, unknown> = {};
  for (const status of successStatuses(route)) {
    const headers = successHeaders(route, status, b);
    const schema = selectable(successSchema(route, status, b), route, b.schemas);
    responses[status] = {
      description: successWords[status] ?? 'Success.',
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(status === '204' || status === '304'
        ? {}
        : { content: contentOf(types, schema, b, examples[status]) }),
    };
  }
  for (const status of errorStatusesOf(route, secured, b)) {
    responses[status] ??= errorResponseOf(status, route, b);
  }
  // Any other status the pipeline or the handler answers (405, 409…) carries the same body.
  responses.default = errorResponseOf('default', route, b);
  for (const [status, response] of Object.entries(route.config.openapi?.responses ?? {})) {
    responses[status] = ownResponse(response, b.typesOf(route), b);
  }
  return Object.fromEntries(
    Object.entries(responses).sort(([a], [z]) =>
      a === 'default' ? 1 : z === 'default' ? -1 : a < z ? -1 : a > z ? 1 : 0,
    ),
  );
}
