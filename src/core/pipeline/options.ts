/** The options of `conventions()` and their one-time resolution into plain data (STYLE.md rule 5). */
import { consoleLogger, type Logger } from '../errors/to-response.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { LintOptions } from '../lint/index.ts';
import { Router } from '../routing/router.ts';
import type { RouteTable } from '../routing/types.ts';
import type { Plugin } from './plugin.ts';
import type { Check } from './steps.ts';

/** Options of {@link conventions}. */
export interface ConventionsOptions {
  /** The route table: path patterns mapped to methods and handlers. @default {} */
  routes?: RouteTable;
  /** Features that take part in every request, in order. @default [] */
  plugins?: readonly Plugin[];
  /** The largest request body read, in bytes; larger bodies get 413. @default 1048576 (1 MiB) */
  bodyLimit?: number;
  /** Where 5xx faults and route-lint warnings are reported. @default console */
  logger?: Logger;
  /**
   * What to do when the route table breaks a path rule (spec 4.1): report each finding through
   * `logger.warn`, throw a `TypeError` listing them, or skip the check. @default 'warn'
   */
  lint?: 'warn' | 'throw' | 'off';
  /** Options of the route lint, e.g. patterns exempt from it. @default the lint's defaults */
  lintOptions?: LintOptions;
}

/** {@link ConventionsOptions} checked and compiled: what the request path reads. */
export interface ResolvedConventionsOptions {
  router: Router;
  configKeys: string[];
  bodyLimit: number;
  logger: Logger;
  lint: 'warn' | 'throw' | 'off';
  lintOptions: LintOptions | undefined;
  onRequest: Check[];
  beforeHandle: Check[];
  onResponse: NonNullable<Plugin['onResponse']>[];
}

const known = ['routes', 'plugins', 'bodyLimit', 'logger', 'lint', 'lintOptions'];

/** Validates the options once, at creation: a mistake is a `TypeError` that says how to fix it. */
export function resolveConventionsOptions(options: ConventionsOptions): ResolvedConventionsOptions {
  assertKnownKeys('conventions()', options, known);
  const lint = options.lint ?? 'warn';
  if (!['warn', 'throw', 'off'].includes(lint)) {
    throw new TypeError(`lint must be 'warn', 'throw' or 'off'; got ${String(options.lint)}.`);
  }
  const plugins = options.plugins ?? [];
  for (const plugin of plugins) {
    if (typeof plugin?.name !== 'string') throw new TypeError('Every plugin needs a `name`.');
  }
  const configKeys = plugins.flatMap((p) => p.routeConfig ?? []);
  const router = new Router(options.routes, configKeys);
  for (const plugin of plugins) {
    if (plugin.onRoute) for (const route of router.routes) plugin.onRoute(route);
  }
  return {
    router,
    configKeys,
    bodyLimit: assertInteger('bodyLimit', options.bodyLimit ?? 1_048_576, 0, 2 ** 31),
    logger: options.logger ?? consoleLogger,
    lint,
    lintOptions: options.lintOptions,
    onRequest: plugins.flatMap((p) => (p.onRequest ? [p.onRequest.bind(p)] : [])),
    beforeHandle: plugins.flatMap((p) => (p.beforeHandle ? [p.beforeHandle.bind(p)] : [])),
    onResponse: plugins.flatMap((p) => (p.onResponse ? [p.onResponse.bind(p)] : [])),
  };
}
