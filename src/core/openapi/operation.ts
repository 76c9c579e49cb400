/**
 * One operation (OpenAPI 3.1 §4.8.10): its id, summary, tags, parameters, body, responses and
 * security; and the OPTIONS operation the library answers on every path (RFC 9110 §9.3.7).
 */
import type { RouteInfo } from '../kernel/route-table.ts';
import { type Build, headerRefs } from './build.ts';
import { errorResponseOf } from './errors.ts';
import { optionsHeaders, rateLimitHeaders } from './headers.ts';
import { summaryOf, tagOf } from './naming.ts';
import { parametersOf } from './parameters.ts';
import { requestBodyOf } from './request-body.ts';
import { responsesOf } from './responses.ts';

/** `get` + `/v1/books/{id}` → `getV1BooksId`. */
const operationId = (method: string, path: string) =>
  method.toLowerCase() +
  path
    .split(/[^A-Za-z0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join('');

/** The security requirements of `route`: its own, else the bearer token with its scopes. */
function securityOf(route: RouteInfo, secured: boolean, b: Build): unknown[] {
  const own = route.config.openapi;
  for (const [name, scheme] of Object.entries(own?.securitySchemes ?? {})) {
    b.securitySchemes[name] ??= scheme;
  }
  if (own?.security !== undefined) return own.security.map((r) => ({ ...r }));
  if (!secured) return [];
  const scopes = route.config.scopes ?? [];
  return [
    { bearerAuth: [...scopes] },
    ...(b.options.oauth2 !== undefined ? [{ oauth2: [...scopes] }] : []),
  ];
}

/** A sentence on the `.json`/`.xml` twins of a read, which answer as `format=` does. */
function twinsNote(route: RouteInfo, twins: readonly string[]): string | undefined {
  if (twins.length === 0) return undefined;
  const paths = twins.map((f) => `\`${route.pattern}.${f}\``).join(' and ');
  return `Also at ${paths}, which answer in that format whatever Accept says (spec 4.5).`;
}

/** The operation of `route`, at `path` whose parameters are `names`. */
export function operationOf(
  route: RouteInfo,
  path: string,
  names: readonly string[],
  twins: readonly string[],
  b: Build,
): Record<string, unknown> {
  const secured = b.features.bearer && route.config.auth !== false;
  const own = route.config.openapi;
  const host = route.schemas;
  const tag = tagOf(route.pattern);
  const tags = own?.tags ?? host?.tags ?? (tag === undefined ? undefined : [tag]);
  const description = [own?.description ?? host?.description, twinsNote(route, twins)]
    .filter((d) => d !== undefined)
    .join('\n\n');
  const op: Record<string, unknown> = {
    operationId: operationId(route.method, path),
    summary: own?.summary ?? host?.summary ?? summaryOf(route),
    ...(description !== '' ? { description } : {}),
    ...(tags !== undefined ? { tags: [...tags] } : {}),
  };
  const parameters = parametersOf(route, names, b);
  if (parameters.length > 0) op.parameters = parameters;
  const body = requestBodyOf(route, b);
  if (body !== undefined) op.requestBody = body;
  op.responses = responsesOf(route, secured, b);
  if (route.config.deprecation !== undefined) op.deprecated = true;
  // The twins, for tools that read them (the conformance suite's response check).
  if (twins.length > 0) op['x-format-suffixes'] = [...twins];
  op.security = securityOf(route, secured, b);
  return op;
}

/**
 * The OPTIONS operation of a path: 204 with `Allow`, and, to a CORS preflight, what the origin
 * may send. No credentials are asked (a preflight carries none, Fetch standard).
 */
export function optionsOperation(
  path: string,
  names: readonly string[],
  tag: string | undefined,
  b: Build,
): Record<string, unknown> {
  const { features } = b;
  const errors = ['400', '404', '414', '431', '500', '503'];
  if (features.cors) errors.push('403');
  if (features.rateLimit) errors.push('429');
  if (!b.responses.has('Options')) {
    const headers = {
      ...optionsHeaders(features.cors),
      ...(features.rateLimit ? rateLimitHeaders : {}),
    };
    b.responses.set('Options', {
      description:
        'The methods this path allows (RFC 9110 §9.3.7); to a CORS preflight, what the origin may send.',
      headers: headerRefs(headers, b),
    });
  }
  const responses: Record<string, unknown> = { '204': { $ref: '#/components/responses/Options' } };
  for (const status of errors.sort()) responses[status] = errorResponseOf(status, undefined, b);
  responses.default = errorResponseOf('default', undefined, b);
  return {
    operationId: operationId('options', path),
    summary: 'The methods of this path',
    ...(tag !== undefined ? { tags: [tag] } : {}),
    ...(names.length > 0
      ? {
          parameters: names.map((name) => ({
            name,
            in: 'path',
            required: true,
            description: `The ${name} of the resource.`,
            schema: { type: 'string' },
          })),
        }
      : {}),
    responses,
    security: [],
  };
}
