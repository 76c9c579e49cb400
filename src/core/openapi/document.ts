/**
 * An OpenAPI 3.1 document from a `Conventions`: every operation of the routes and the app's own
 * routes, with the statuses, media types, headers and bodies the service answers with, named
 * schemas, and the OPTIONS the library answers on every path. Deterministic: paths sorted,
 * methods in a fixed order, so two runs give the same bytes.
 */
import type { DescribedApi } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import { type Build, startBuild } from './build.ts';
import { errorSchema } from './errors.ts';
import { tagOf } from './naming.ts';
import { operationOf, optionsOperation } from './operation.ts';
import type { OpenApiOptions } from './options.ts';

const methodOrder = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];

/** `/v1/books/:id` → `/v1/books/{id}`, and its parameter names. */
function templateOf(pattern: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = pattern.replace(/[:*]([A-Za-z_$][\w$]*)/g, (_m, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

/** Whether `route` is an operation of the API: not a twin, nor hidden by itself or its host. */
function documented(route: RouteInfo): boolean {
  return (
    methodOrder.includes(route.method) &&
    route.config.formatSuffix === undefined &&
    route.config.openapi?.hide !== true &&
    route.schemas?.hide !== true
  );
}

/** The formats of the `.json`/`.xml` twins of each GET pattern, which `format=` stands for. */
function twinsOf(routes: readonly RouteInfo[]): Map<string, string[]> {
  const twins = new Map<string, string[]>();
  for (const route of routes) {
    const format = route.config.formatSuffix;
    if (route.method !== 'GET' || format === undefined) continue;
    const base = route.pattern.slice(0, -(format.length + 1));
    twins.set(base, [...(twins.get(base) ?? []), format].sort());
  }
  return twins;
}

/** The document's tags: those the options describe, then the others the operations use. */
function tagsOf(used: ReadonlySet<string>, options: OpenApiOptions) {
  const given = options.tags ?? [];
  const out = given.map(({ name, description }) => ({ name, description }));
  for (const name of [...used].sort()) {
    if (!given.some((t) => t.name === name)) {
      out.push({ name, description: `Operations on ${name.replace(/[-_]/g, ' ')}.` });
    }
  }
  return out;
}

/**
 * Builds the OpenAPI 3.1 document of `api` (a `Conventions`): deterministic, so it can be
 * committed and diffed.
 *
 * @example
 * ```ts
 * import { conventions, openapi } from 'api-conventions';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const doc = openapi(api, { info: { title: 'Bookshelf', version: '1.0.0' } });
 * ```
 *
 * @category Routing
 */
export function openapi(api: DescribedApi, options: OpenApiOptions): Record<string, unknown> {
  if (typeof options?.info?.title !== 'string' || typeof options.info.version !== 'string') {
    throw new TypeError('openapi(): give info: { title, version }.');
  }
  const b = startBuild(api, options);
  b.schemas.add('Error', errorSchema);
  const declared = new Set(api.routes.map((r) => `${r.method} ${r.pattern}`));
  const own = (api.appRoutes ?? []).filter((r) => !declared.has(`${r.method} ${r.pattern}`));
  const all = [...api.routes, ...own];
  const twins = twinsOf(all);
  const routes = all
    .filter(documented)
    .map((route) => ({ route, key: templateOf(route.pattern).path }))
    .sort((a, z) =>
      a.key === z.key
        ? methodOrder.indexOf(a.route.method) - methodOrder.indexOf(z.route.method)
        : a.key < z.key
          ? -1
          : 1,
    )
    .map(({ route }) => route);
  const byPath = new Map<string, Record<string, unknown>>();
  const tags = new Set<string>();
  for (const route of routes) {
    const { path, names } = templateOf(route.pattern);
    let item = byPath.get(path);
    if (item === undefined) {
      item = {};
      byPath.set(path, item);
    }
    const twinFormats = route.method === 'GET' ? (twins.get(route.pattern) ?? []) : [];
    const op = operationOf(route, path, names, twinFormats, b);
    for (const tag of (op.tags as string[] | undefined) ?? []) tags.add(tag);
    item[route.method.toLowerCase()] = op;
  }
  // OPTIONS, which the library answers on every path it serves (RFC 9110 §9.3.7).
  for (const [path, item] of byPath) {
    const first = Object.values(item)[0] as { tags?: string[] };
    const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
    item.options = optionsOperation(
      path,
      templateOf(pattern).names,
      first.tags?.[0] ?? tagOf(pattern),
      b,
    );
  }
  const securitySchemes = securitySchemesOf(b, options);
  const sorted = <T>(map: Map<string, T> | Record<string, T>) =>
    Object.fromEntries(
      (map instanceof Map ? [...map] : Object.entries(map)).sort(([a], [z]) => (a < z ? -1 : 1)),
    );
  return {
    openapi: '3.1.0',
    info: options.info,
    servers: options.servers ?? [{ url: '/' }],
    ...(tags.size > 0 ? { tags: tagsOf(tags, options) } : {}),
    paths: Object.fromEntries(byPath),
    components: {
      schemas: b.schemas.toJSON(),
      responses: sorted(b.responses),
      ...(b.headers.size > 0 ? { headers: sorted(b.headers) } : {}),
      securitySchemes: sorted(securitySchemes),
    },
  };
}

/**
 * The document's security schemes: bearer tokens when a route reads them, the OAuth 2.0 flows of
 * `options.oauth2`, then those the plugins described (a plugin's own name never replaces ours).
 */
function securitySchemesOf(b: Build, options: OpenApiOptions): Record<string, unknown> {
  const securitySchemes: Record<string, unknown> = b.features.bearer
    ? {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token in the Authorization header (RFC 6750 §2.1).',
        },
      }
    : {};
  if (options.oauth2 !== undefined) {
    const { tokenUrl, authorizationUrl, scopes = {} } = options.oauth2;
    securitySchemes.oauth2 = {
      type: 'oauth2',
      flows: {
        password: { tokenUrl, scopes },
        clientCredentials: { tokenUrl, scopes },
        ...(authorizationUrl ? { authorizationCode: { authorizationUrl, tokenUrl, scopes } } : {}),
      },
    };
  }
  for (const [name, scheme] of Object.entries(b.securitySchemes)) securitySchemes[name] ??= scheme;
  return securitySchemes;
}
