/** The options of `conventions()` and their one-time resolution into plain data. */
import { type Logger, resolveLogger } from '../errors/logger.ts';
import {
  type BodyStructure,
  compileBodyStructure,
  type StructureLimits,
} from '../http/body-structure.ts';
import { HeaderBag, type HeaderValue } from '../http/headers.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { isProduction } from '../internal/platform.ts';
import { defaultCheckTimeout } from '../kernel/check-budget.ts';
import type { RequestContext } from '../kernel/context.ts';
import { transformsAreOwn } from '../kernel/own-transforms.ts';
import type { CheckResult, Plugin } from '../kernel/plugin.ts';
import { compileLogPlan, type LogPlan } from '../kernel/request-logger.ts';
import type { RouteTable } from '../kernel/route-table.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import type { Step } from '../kernel/steps.ts';
import type { LintOptions } from '../lint/index.ts';
import { type RequestIdsOptions, requestIds } from '../observability/request-ids.ts';
import { compileTrust, type TrustProxy, type TrustTest } from '../origin/trust-proxy.ts';
import { Router } from '../routing/router.ts';
import { mergeRoutes, orderPlugins } from './plugins.ts';
import { alwaysOnFill, type ResponsePlan } from './respond.ts';
import { TextReuse } from './reuse.ts';
import { SerializerRegistry } from './serialize.ts';

/**
 * Options of {@link conventions}.
 *
 * @category Start here
 */
export interface ConventionsOptions {
  /** The route table: path patterns mapped to methods and handlers. @default {} */
  routes?: RouteTable;
  /** Features that take part in every request, in the order given, after their `dependencies`. @default [] */
  plugins?: readonly import('../kernel/plugin.ts').Plugin[];
  /** The largest request body read, in bytes; larger bodies get 413. @default 1048576 (1 MiB) */
  bodyLimit?: number;
  /** How long a request body may take to arrive, in milliseconds; slower bodies get 408. @default 30000 */
  bodyTimeout?: number;
  /**
   * The most structure a request body may hold, checked while it is parsed, before any schema or
   * field rule sees it: nesting depth, items of one array, members of one object, values in all.
   * Past any bound the answer is 413 naming it; a route's `bodyStructure` overrides the bounds it
   * names ([Request limits](../../../docs/limits.md)). @default { maxDepth: 64, maxItems: 10000, maxMembers: 10000, maxValues: 20000 }
   */
  bodyStructure?: BodyStructure;
  /**
   * How long an asynchronous check of a request may take to settle, in milliseconds: a route's
   * `body`, `query`, `params` and `headers` schemas, `authorize` (access checks) and
   * `resourceVersion` (caching). One that has not settled by then is answered 503 (code 50303)
   * instead of holding the request open. @default 5000
   */
  checkTimeout?: number;
  /**
   * The longest request target (path and query) read, in characters; longer ones get 414 before
   * routing. The host's own header limit must let such a target through (Node's `maxHeaderSize`,
   * 16 KiB by default): see [Request limits](../../../docs/limits.md). @default 8192
   */
  uriLimit?: number;
  /**
   * Which proxies in front of the service may say where a request came from (`X-Forwarded-*`,
   * `Forwarded`): see {@link TrustProxy}. @default false (none)
   */
  trustProxy?: TrustProxy;
  /**
   * Where every line the library logs goes: 5xx faults, start-up warnings, and what the plugins
   * log (bearer's refused tokens, payload checks; each plugin gets it in `setup`). `console`, a
   * pino logger (Fastify's `app.log`), or any `{ error(obj, msg), warn?(msg) }`. @default console
   */
  logger?: Logger;
  /**
   * What to do when the route table breaks a path rule (spec 4.1): report each finding through
   * `logger.warn`, throw a `TypeError` listing them, or skip the check. Findings that make a
   * route unreachable throw unless the check is off. @default 'warn'
   */
  lint?: 'warn' | 'throw' | 'off';
  /** Options of the route lint, e.g. patterns exempt from it. @default the lint's defaults */
  lintOptions?: LintOptions;
  /**
   * Development mode: warns about likely mistakes at run time (a POST handler that returns
   * nothing). @default true unless `NODE_ENV` is `production`
   */
  development?: boolean;
  /**
   * Whether parameter values may hold upper-case letters (`/v1/books/AbC123`, ids from other
   * systems). Literal segments stay lower-case only: `/V1/books/x` is still 404 (spec 4.1.3).
   * @default false: any upper-case letter in the path is 404, as the spec says
   */
  mixedCaseParameters?: boolean;
  /**
   * Request ids ([Observability](../../../docs/observability.md)): `true` (or the options) gives every request an id, the
   * client's `X-Request-Id` when it is bounded and well-formed, else a new one, echoed on every
   * response, kept on `ctx.state.requestId`, on the span and on every line the request logs.
   * @default false
   */
  requestIds?: boolean | RequestIdsOptions;
}

function flagOption(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean')
    throw new TypeError(`conventions(): ${name} must be true or false.`);
  return value;
}

type Check = (ctx: RequestContext) => Step<CheckResult>;

/**
 * One identity plugin's hooks, as the fail-closed checks of a host's match read them.
 *
 * @category Plugins and pipeline
 */
export interface IdentityPlan {
  /** Whether a route lets a caller without credentials through; absent: never. */
  allowsAnonymous: ((route: RouteSettings) => boolean) | undefined;
  /** Verifies the request's credentials and refuses a request without them; absent: `authenticate` on a route that needs them. */
  requireIdentity: Check | undefined;
  /** The plugin's route-level authentication. */
  authenticate: Check;
}

function identityPlans(plugins: readonly Plugin[]): IdentityPlan[] {
  return plugins.flatMap((p) =>
    p.authenticate
      ? [
          {
            allowsAnonymous: p.allowsAnonymous?.bind(p),
            requireIdentity: p.requireIdentity?.bind(p),
            authenticate: p.authenticate.bind(p),
          },
        ]
      : [],
  );
}

/**
 * {@link ConventionsOptions} checked and compiled: what the request path reads.
 *
 * @category Plugins and pipeline
 */
export interface ResolvedConventionsOptions {
  router: Router;
  configKeys: string[];
  /** The installed plugins' names, in order. */
  pluginNames: readonly string[];
  /** What the host found after the conventions (the plugins' `downstream`), set by the host. */
  downstream: { encodes: boolean };
  /** The plugins' `onReady` hooks, called once the Conventions is built. */
  onReady: ((api: import('../kernel/plugin.ts').DescribedApi) => void)[];
  /** The media types a route answers in, by the first plugin that says (`mediaTypes`). */
  mediaTypes:
    | ((route: import('../kernel/route-table.ts').RouteInfo) => readonly string[])
    | undefined;
  bodyLimit: number;
  bodyTimeout: number;
  /** The service's bounds on a body's structure, each route's own compiled over them. */
  bodyStructure: StructureLimits;
  /** Milliseconds an asynchronous check may take before the request is answered 503. */
  checkTimeout: number;
  uriLimit: number;
  trust: TrustTest;
  logger: Required<Logger>;
  lint: 'warn' | 'throw' | 'off';
  lintOptions: LintOptions | undefined;
  development: boolean;
  mixedCaseParameters: boolean;
  onRoute: ((route: import('../kernel/route-table.ts').RouteInfo) => void)[];
  onRequest: Check[];
  authenticate: Check[];
  /** The identity plugins (those that `authenticate`), for the fail-closed checks of a host's match. */
  identities: IdentityPlan[];
  credentialTests: ((ctx: RequestContext) => boolean)[];
  /** For each `onRequest` hook, whether its plugin sees every request (`seesEveryRequest`). */
  everyRequest: boolean[];
  preParsing: Check[];
  preHandler: Check[];
  response: ResponsePlan;
  /** The plugins' `onReceive` hooks: every request, as it is received. */
  onReceive: ((ctx: RequestContext) => void)[];
  /** The plugins' `onResponse` hooks: every request received, with its final status. */
  onResponse: ((ctx: RequestContext, status: number) => void)[];
  /** How a request logs: the service's logger and the plugins' `logFields`. */
  logs: LogPlan<RequestContext>;
}

const known = [
  'routes',
  'plugins',
  'bodyLimit',
  'bodyTimeout',
  'bodyStructure',
  'checkTimeout',
  'uriLimit',
  'trustProxy',
  'logger',
  'lint',
  'lintOptions',
  'development',
  'mixedCaseParameters',
  'requestIds',
];

/** The plugins, the built-in request ids first when asked for: they see each request first. */
function withRequestIds(plugins: unknown, ids: unknown): unknown {
  if (ids === undefined || ids === false) return plugins;
  if (ids !== true && (typeof ids !== 'object' || ids === null)) {
    throw new TypeError(
      'conventions(): requestIds must be true, false or the options of request ids.',
    );
  }
  const plugin = requestIds(ids === true ? {} : (ids as RequestIdsOptions));
  return Array.isArray(plugins) ? [plugin, ...plugins] : plugins === undefined ? [plugin] : plugins;
}

// Every response says what it is and that browsers must not guess (spec 4.8).
const builtInHeaders: Record<string, HeaderValue> = { 'x-content-type-options': 'nosniff' };

/** What the plugins contribute besides hooks: serializers by media type, always-on headers. */
function contributionsOf(plugins: readonly Plugin[]): {
  serializers: SerializerRegistry;
  alwaysOn: HeaderBag;
} {
  const serializers = new SerializerRegistry(
    transformsAreOwn(plugins) ? new TextReuse() : undefined,
  );
  const alwaysOn = new HeaderBag(builtInHeaders);
  for (const plugin of plugins) {
    for (const [type, serializer] of Object.entries(plugin.serializers ?? {})) {
      serializers.add(type, serializer, plugin.name);
    }
    if (plugin.headers) alwaysOn.merge(plugin.headers);
  }
  return { serializers, alwaysOn };
}

type HookName =
  | 'onRequest'
  | 'authenticate'
  | 'credentials'
  | 'preParsing'
  | 'preHandler'
  | 'preSerialization'
  | 'onSend'
  | 'onReceive'
  | 'onResponse'
  | 'logFields';

/** The plugins' hooks of one name, in the plugins' order, each bound to its plugin. */
function hooksOf(plugins: readonly Plugin[]): (key: HookName) => never[] {
  return (key) =>
    plugins.flatMap((p) =>
      p[key] ? [(p[key] as (...a: never[]) => unknown).bind(p)] : [],
    ) as never[];
}

/**
 * Validates the options once, at creation: a mistake is a `TypeError` that says how to fix it.
 *
 * @category Plugins and pipeline
 */
export function resolveConventionsOptions(options: ConventionsOptions): ResolvedConventionsOptions {
  assertKnownKeys('conventions()', options, known);
  const lint = options.lint ?? 'warn';
  if (!['warn', 'throw', 'off'].includes(lint)) {
    throw new TypeError(`lint must be 'warn', 'throw' or 'off'; got ${String(options.lint)}.`);
  }
  const plugins = orderPlugins(withRequestIds(options.plugins, options.requestIds));
  // Checked before the plugins are set up: they log through it from then on.
  const logger = resolveLogger(options.logger);
  const checkTimeout = assertInteger(
    'checkTimeout',
    options.checkTimeout ?? defaultCheckTimeout,
    1,
    2 ** 31 - 1,
  );
  const downstream = { encodes: false };
  for (const plugin of plugins) plugin.setup?.({ logger, checkTimeout, downstream });
  const configKeys = plugins.flatMap((p) => p.routeConfig ?? []);
  const router = new Router(mergeRoutes(options.routes, plugins), configKeys);
  const onRoute = plugins.flatMap((p) => (p.onRoute ? [p.onRoute.bind(p)] : []));
  for (const hook of onRoute) for (const route of router.routes) hook(route);
  const { serializers, alwaysOn } = contributionsOf(plugins);
  const bind = hooksOf(plugins);
  const alwaysOnHeaders = HeaderBag.constant(alwaysOn);
  return {
    router,
    configKeys,
    pluginNames: plugins.map((p) => p.name),
    downstream,
    onReady: plugins.flatMap((p) => (p.onReady ? [p.onReady.bind(p)] : [])),
    mediaTypes: plugins
      .find((p) => p.mediaTypes !== undefined)
      ?.mediaTypes?.bind(plugins.find((p) => p.mediaTypes !== undefined)),
    bodyLimit: assertInteger('bodyLimit', options.bodyLimit ?? 1_048_576, 0, 2 ** 31),
    bodyTimeout: assertInteger('bodyTimeout', options.bodyTimeout ?? 30_000, 1, 2 ** 31 - 1),
    bodyStructure: compileBodyStructure('conventions(): bodyStructure', options.bodyStructure),
    checkTimeout,
    uriLimit: assertInteger('uriLimit', options.uriLimit ?? 8192, 16, 2 ** 31 - 1),
    trust: compileTrust(options.trustProxy),
    logger,
    lint,
    lintOptions: options.lintOptions,
    development: options.development ?? !isProduction(),
    mixedCaseParameters: flagOption('mixedCaseParameters', options.mixedCaseParameters),
    onRoute,
    onRequest: bind('onRequest'),
    authenticate: bind('authenticate'),
    identities: identityPlans(plugins),
    credentialTests: bind('credentials'),
    everyRequest: plugins.filter((p) => p.onRequest).map((p) => p.seesEveryRequest === true),
    preParsing: bind('preParsing'),
    preHandler: bind('preHandler'),
    onReceive: bind('onReceive'),
    onResponse: bind('onResponse'),
    logs: compileLogPlan(options.logger, logger, bind('logFields')),
    response: {
      transform: bind('preSerialization'),
      send: bind('onSend'),
      serializers,
      alwaysOn: alwaysOnHeaders,
      fillAlwaysOn: alwaysOnFill(alwaysOnHeaders),
      logger,
      development: options.development ?? !isProduction(),
    },
  };
}
