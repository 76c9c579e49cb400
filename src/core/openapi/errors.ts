/**
 * The error responses of an operation (spec 7): each status the pipeline can answer there, with
 * the error body in every media type it can come in, shared as components.
 */
import type { RouteInfo } from '../kernel/route-table.ts';
import { type Build, contentOf, headerRefs } from './build.ts';
import { SchemaComponents } from './components.ts';
import { challengeHeaders, notModifiedHeaders, tooManyHeaders } from './headers.ts';
import type { JsonSchema } from './json-schema.ts';

/** The error body (spec 7.1.5): one entry per problem, each with a message and a code. */
export const errorSchema: JsonSchema = {
  type: 'object',
  description: 'The error body of the specification: one entry per problem (spec 7).',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['message', 'code'],
        properties: {
          message: { type: 'string', description: 'What went wrong, for a person.' },
          code: {
            type: 'integer',
            description: 'Which problem, for a program: the status × 100 + n (docs/errors.md).',
          },
        },
      },
    },
  },
  examples: [{ errors: [{ message: 'The field "title" must be a string.', code: 40002 }] }],
};

type Kind = 'error' | 'unauthorized' | 'tooMany';

const descriptions: Record<Kind, string> = {
  error: 'The error body of the specification: one entry per problem (spec 7).',
  unauthorized:
    'No credentials, or credentials the service does not accept (RFC 9110 §15.5.2), with the error body (spec 7).',
  tooMany: 'The rate limit is reached (RFC 6585 §4, spec 8), with the error body.',
};
const bases: Record<Kind, string> = {
  error: 'Error',
  unauthorized: 'Unauthorized',
  tooMany: 'TooManyRequests',
};

/**
 * The media types an error comes in on a route: JSON always, since an error raised before the
 * format is chosen (a refused token, an upper-case path, a malformed query) is JSON whatever was
 * asked for, then every type the route answers in.
 */
function errorTypesOf(route: RouteInfo | undefined, b: Build): string[] {
  const types = route === undefined ? [] : b.typesOf(route);
  return ['application/json', ...types.filter((t) => t !== 'application/json')];
}

/** The shared response of `kind` in `types`, added to the components on first use. */
function shared(kind: Kind, types: readonly string[], b: Build): JsonSchema {
  const key = `${kind} ${types.join(',')}`;
  let name = b.responseNames.get(key);
  if (name === undefined) {
    const formats = ['json', 'xml'].filter((f) => types.some((t) => t.endsWith(f)));
    const vendor = types.some((t) => t.startsWith('application/vnd.'));
    const suffix =
      formats.length === 1 && formats[0] === 'json' && !vendor
        ? ''
        : `${formats.map((f) => f[0]!.toUpperCase() + f.slice(1)).join('')}${vendor ? 'Vendor' : ''}`;
    const base = `${bases[kind]}${suffix}`;
    name = base;
    for (let n = 2; b.responses.has(name); n++) name = `${base}${n}`;
    b.responseNames.set(key, name);
    const headers =
      kind === 'tooMany' ? tooManyHeaders : kind === 'unauthorized' ? challengeHeaders : undefined;
    b.responses.set(name, {
      description: descriptions[kind],
      ...(headers !== undefined ? { headers: headerRefs(headers, b) } : {}),
      content: contentOf(types, SchemaComponents.ref('Error'), b),
    });
  }
  return { $ref: `#/components/responses/${name}` };
}

/** The error statuses the pipeline can answer on `route`. */
export function errorStatusesOf(route: RouteInfo, secured: boolean, b: Build): string[] {
  const { features } = b;
  // Every request: a malformed query or header (400), a path nothing serves or an upper-case
  // one (404), an Accept nothing matches (406), a target or header section past the limits
  // (414, 431), a fault (500), a store that does not answer (503).
  const out = ['400', '404', '406', '414', '431', '500', '503'];
  if (secured) out.push('401', '403');
  if (['POST', 'PUT', 'PATCH'].includes(route.method)) out.push('408', '413', '415');
  if (route.config.deprecation !== undefined) out.push('410');
  if (features.caching) out.push('412');
  if (features.caching && route.config.requireIfMatch === true) out.push('428');
  if (features.caching && route.method === 'GET') out.push('304');
  if (features.rateLimit) out.push('429');
  return out.sort();
}

/** The response of one error status on `route` (304 has no body). */
export function errorResponseOf(status: string, route: RouteInfo | undefined, b: Build): unknown {
  if (status === '304') {
    return {
      description: 'Not modified: the version the client holds is current (RFC 9110 §15.4.5).',
      headers: headerRefs(notModifiedHeaders, b),
    };
  }
  const kind: Kind = status === '429' ? 'tooMany' : status === '401' ? 'unauthorized' : 'error';
  return shared(kind, errorTypesOf(route, b), b);
}
