/** Checks per-route settings once, at start-up: a misspelt key or a bad value is a TypeError. */
import { checkBodyStructure } from '../http/body-structure.ts';
import { contentCodings } from '../http/content-coding.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RouteConfig } from '../kernel/route-types.ts';
import { assertRuleValues } from '../validation/field-rule.ts';
import { isStandardSchema } from '../validation/standard-schema.ts';

/**
 * The settings the library itself reads from a route's `config`.
 *
 * @category Routing
 */
export const builtInConfigKeys: readonly string[] = [
  'accepts',
  'bodyLimit',
  'bodyStructure',
  'encodings',
  'body',
  'rejectUnknownFields',
  'query',
  'params',
  'headers',
  'response',
  'openapi',
];
/**
 * The route settings of the built-in plugins, by the plugin that reads them: a setting whose
 * plugin is missing is a start-up `TypeError` that names the plugin to add, not "unknown
 * option". Names only (no import of any feature); a test compares it with each plugin's
 * `routeConfig`.
 */
export const settingOwners: Readonly<Record<string, string>> = {
  list: 'payloads()',
  resource: 'payloads()',
  deprecation: 'versioning()',
  formats: 'negotiation()',
  formatSuffix: 'negotiation()',
  suffixes: 'negotiation()',
  vendorTypes: 'negotiation()',
  auth: 'bearer()',
  scopes: 'bearer()',
  user: 'bearer()',
  cacheControl: 'caching()',
  etag: 'caching()',
  resourceVersion: 'caching()',
  requireIfMatch: 'caching()',
  rateLimit: 'rateLimit()',
  authorize: 'accessChecks()',
  hideForbidden: 'accessChecks()',
  writable: 'accessChecks()',
  securityHeaders: 'securityHeaders()',
};

/** Methods the pipeline never applies `body` rules on, so rules declared there are a mistake. */
const bodiless = ['GET', 'HEAD', 'DELETE', 'OPTIONS'];
const formats = ['json', 'form'];
const ruleKeys = ['type', 'required', 'nullable', 'min', 'max', 'pattern', 'enum', 'example'];

function checkBodyRules(where: string, body: unknown): void {
  if (isStandardSchema(body)) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TypeError(
      `${where}: \`body\` must map field names to rules such as { type: 'string' }.`,
    );
  }
  for (const [field, rule] of Object.entries(body)) {
    const at = `${where}: body field "${field}"`;
    assertKnownKeys(at, rule, ruleKeys);
    assertRuleValues(at, rule as object);
  }
}

/**
 * Checks a route's settings: every key known (the built-in ones and `extraKeys`, those the
 * plugins read), and the built-in values well-formed. `where` names the route in the message;
 * with its `method`, `body` rules on a GET, HEAD, DELETE or OPTIONS route are refused too.
 *
 * @category Routing
 */
export function checkRouteConfig(
  where: string,
  config: RouteConfig,
  extraKeys: readonly string[],
  method?: string,
): void {
  for (const key of Object.keys(config)) {
    const plugin = settingOwners[key];
    if (plugin !== undefined && !extraKeys.includes(key) && !builtInConfigKeys.includes(key)) {
      throw new TypeError(
        `${where}: \`${key}\` is read by the ${plugin} plugin, which is not installed; add ${plugin} to \`plugins\`.`,
      );
    }
  }
  assertKnownKeys(where, config, [...builtInConfigKeys, ...extraKeys]);
  if (config.body !== undefined && method !== undefined && bodiless.includes(method)) {
    // The pipeline checks body rules only on POST, PUT and PATCH, so these would silently never run.
    throw new TypeError(
      `${where}: \`body\` rules are never read on ${method} requests; move them to the POST, PUT or PATCH route, or check the query in the handler.`,
    );
  }
  if (config.accepts !== undefined) {
    if (!Array.isArray(config.accepts) || config.accepts.some((f) => !formats.includes(f))) {
      throw new TypeError(
        `${where}: \`accepts\` must list body formats from ${formats.join(', ')}.`,
      );
    }
  }
  if (config.encodings !== undefined) {
    const list = config.encodings as unknown;
    if (!Array.isArray(list) || list.some((c) => !contentCodings.includes(c))) {
      throw new TypeError(
        `${where}: \`encodings\` must list content codings from ${contentCodings.join(', ')}.`,
      );
    }
  }
  if (config.bodyLimit !== undefined)
    assertInteger(`${where}: bodyLimit`, config.bodyLimit, 0, 2 ** 31);
  if (config.bodyStructure !== undefined)
    checkBodyStructure(`${where}: bodyStructure`, config.bodyStructure);
  if (config.body !== undefined) checkBodyRules(where, config.body);
  if (config.response !== undefined) {
    const entries = typeof config.response === 'object' ? Object.entries(config.response) : [];
    if (
      entries.length === 0 ||
      entries.some(([status, schema]) => !/^[1-5]\d\d$/.test(status) || !isStandardSchema(schema))
    ) {
      throw new TypeError(
        `${where}: \`response\` must map statuses (200, 201…) to Standard Schemas of their bodies.`,
      );
    }
  }
  if (config.openapi !== undefined) checkOpenApiSettings(where, config.openapi);
  for (const part of ['query', 'params', 'headers'] as const) {
    if (config[part] !== undefined && !isStandardSchema(config[part])) {
      throw new TypeError(
        `${where}: \`${part}\` must be a Standard Schema (a zod, valibot or arktype schema, say).`,
      );
    }
  }
}

function checkOpenApiSettings(where: string, given: unknown): void {
  const at = `${where}: \`openapi\``;
  assertKnownKeys(at, given as object, [
    'summary',
    'description',
    'tags',
    'parameters',
    'requestBody',
    'responses',
    'example',
    'security',
    'securitySchemes',
    'hide',
  ]);
  const { responses, example, security, hide } = given as Record<string, unknown>;
  if (hide !== undefined && typeof hide !== 'boolean') {
    throw new TypeError(`${at}.hide must be true or false.`);
  }
  if (example !== undefined)
    assertKnownKeys(`${at}.example`, example as object, ['body', 'responses']);
  if (
    security !== undefined &&
    (!Array.isArray(security) ||
      security.some((r) => typeof r !== 'object' || r === null || Array.isArray(r)))
  ) {
    throw new TypeError(
      `${at}.security must be a list of requirements such as [{ clientBasic: [] }], or [] for none.`,
    );
  }
  if (responses === undefined) return;
  const entries =
    typeof responses === 'object' && responses !== null ? Object.entries(responses) : [];
  if (
    entries.some(
      ([status, r]) =>
        !/^([1-5]\d\d|[1-5]XX|default)$/.test(status) ||
        typeof (r as { description?: unknown })?.description !== 'string',
    )
  ) {
    throw new TypeError(
      `${at}.responses must map statuses ('200', '2XX', 'default') to responses with a description.`,
    );
  }
}
