/**
 * Compiles one path of a route table at start-up. Every mistake in the table is a `TypeError`
 * whose sentence says how to fix it, so a typo never becomes a misleading 404 or 405 at run time.
 */
import { type MatchFunction, match } from 'path-to-regexp';
import { closestKey } from '../internal/options.ts';
import type { Handler, RouteDefinition, RouteInfo } from '../kernel/route-table.ts';
import type { RouteConfig } from '../kernel/route-types.ts';
import { builtInConfigKeys, checkRouteConfig } from './check-config.ts';
import { isStatic } from './prefix-index.ts';

const declarable = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const allowOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const definitionKeys = ['handler', 'config'];

/**
 * The `Allow` list for the methods a path serves: in the spec's order, HEAD beside GET and
 * OPTIONS added (RFC 9110 §9.3.2, §9.3.7), other methods after; empty when there are none.
 * Hosts with their own router build their 405 and OPTIONS answers with it.
 *
 * @category Routing
 */
export function allowList(methods: Iterable<string>): string[] {
  const all = new Set(methods);
  if (all.size === 0) return [];
  all.add('OPTIONS');
  if (all.has('GET')) all.add('HEAD');
  const known = allowOrder.filter((method) => all.has(method));
  for (const method of all) if (!allowOrder.includes(method)) known.push(method);
  return known;
}

/**
 * One path of the table, compiled.
 *
 * @category Routing
 */
export interface PathEntry {
  readonly pattern: string;
  readonly methods: ReadonlyMap<string, RouteInfo>;
  readonly allow: readonly string[];
  /** `undefined` for a static path, found by the router's map instead. */
  readonly matcher: MatchFunction<Record<string, string | string[]>> | undefined;
}

/**
 * Names the kind of a value that is not what was expected, for an error sentence.
 *
 * @category Routing
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'undefined';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one method's value as a definition, refusing what JavaScript would silently accept. */
function toDefinition(
  method: string,
  pattern: string,
  value: unknown,
  configKeys: readonly string[],
): RouteDefinition {
  const where = `Route "${method} ${pattern}"`;
  if (value === undefined) {
    // `{ GET: listBooks }` with listBooks not imported: skipping it would answer 405 at run time.
    throw new TypeError(
      `${where}: the handler is undefined; check that it is imported and defined before the route table, or remove the ${method} key.`,
    );
  }
  if (typeof value === 'function') return { handler: value as Handler };
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (definitionKeys.includes(key)) continue;
      const hint = [...builtInConfigKeys, ...configKeys].includes(key)
        ? `did you mean \`config.${key}\`? Route settings go inside \`config\`: { handler, config: { ${key} } }.`
        : closestKey(key, definitionKeys) !== undefined
          ? `did you mean \`${closestKey(key, definitionKeys)}\`?`
          : 'a route definition has only `handler` and `config`.';
      throw new TypeError(`${where}: unknown key \`${key}\`; ${hint}`);
    }
  }
  const definition = value as RouteDefinition;
  if (typeof definition?.handler !== 'function') {
    throw new TypeError(`${where} needs a handler function.`);
  }
  if (definition.config !== undefined && !isPlainObject(definition.config)) {
    throw new TypeError(
      `${where}: \`config\` must be an object of route settings, such as { bodyLimit: 65536 }; got ${kindOf(definition.config)}.`,
    );
  }
  return definition;
}

/**
 * Checks and compiles the methods of one path pattern.
 *
 * @category Routing
 */
export function compileEntry(
  pattern: string,
  methods: unknown,
  configKeys: readonly string[],
): PathEntry {
  if (!pattern.startsWith('/')) {
    throw new TypeError(`Route pattern "${pattern}" must start with "/".`);
  }
  if (!isPlainObject(methods)) {
    throw new TypeError(
      `Route "${pattern}" must map methods to handlers, such as { GET: listBooks }; got ${kindOf(methods)}.`,
    );
  }
  const map = new Map<string, RouteInfo>();
  for (const [method, value] of Object.entries(methods)) {
    if (!declarable.includes(method)) {
      throw new TypeError(
        `Route "${pattern}": "${method}" is not a method; use one of ${declarable.join(', ')} (upper-case).`,
      );
    }
    const definition = toDefinition(method, pattern, value, configKeys);
    const config: RouteConfig = Object.freeze({ ...definition.config });
    checkRouteConfig(`Route "${method} ${pattern}" config`, config, configKeys, method);
    map.set(method, Object.freeze({ method, pattern, config, handler: definition.handler }));
  }
  if (map.size === 0) {
    throw new TypeError(
      `Route "${pattern}" declares no methods; add one such as { GET: listBooks }, or remove the path.`,
    );
  }
  const get = map.get('GET');
  if (get && !map.has('HEAD')) map.set('HEAD', Object.freeze({ ...get, method: 'HEAD' }));
  let matcher: PathEntry['matcher'];
  if (!isStatic(pattern)) {
    try {
      matcher = match(pattern, { decode: false, trailing: false, sensitive: true });
    } catch (error) {
      throw new TypeError(`Route pattern "${pattern}" is not valid: ${(error as Error).message}`);
    }
  }
  return { pattern, methods: map, allow: allowList(map.keys()), matcher };
}
