/** Access checks (spec 4.8): an authorization hook on every route, 404 instead of 403, writable fields. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { forbidden, invalidRequest, unauthorized } from '../errors/helpers.ts';
import { consoleLogger } from '../errors/logger.ts';
import { assertKnownKeys } from '../internal/options.ts';
import { defaultCheckTimeout, withinBudget } from '../kernel/check-budget.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { CheckResult, Plugin, PluginSetup } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { Step } from '../kernel/steps.ts';

/**
 * Options of {@link accessChecks}.
 *
 * @category Security
 */
export interface AccessChecksOptions {
  /**
   * What a route without `authorize` (neither a check nor `'public'`) is at start-up: a warning
   * through `logger.warn`, a `TypeError`, or nothing. @default 'warn'
   */
  unchecked?: 'warn' | 'throw' | 'off';
  /** Answer refused requests 404 instead of 403 on every route, so existence stays hidden. @default false */
  hideForbidden?: boolean;
}

const knownOptions = ['unchecked', 'hideForbidden'];

interface CompiledAccess {
  authorize: ((ctx: RequestContext) => Step<boolean>) | undefined;
  hide: boolean;
  writable: ReadonlySet<string> | undefined;
}

function where(route: RouteInfo): string {
  return `Route "${route.method} ${route.pattern}"`;
}

function compileRoute(route: RouteInfo, hideDefault: boolean): CompiledAccess {
  const { authorize, hideForbidden, writable } = route.config;
  if (authorize !== undefined && authorize !== 'public' && typeof authorize !== 'function') {
    throw new TypeError(
      `${where(route)}: authorize must be a function (ctx) => boolean, or 'public' for an open route.`,
    );
  }
  if (hideForbidden !== undefined && typeof hideForbidden !== 'boolean') {
    throw new TypeError(`${where(route)}: hideForbidden must be true or false.`);
  }
  if (
    writable !== undefined &&
    (!Array.isArray(writable) || writable.some((name) => typeof name !== 'string'))
  ) {
    throw new TypeError(
      `${where(route)}: writable must be a list of field names, such as ['title', 'year'].`,
    );
  }
  if (writable?.includes('__proto__') || writable?.includes('constructor')) {
    throw new TypeError(`${where(route)}: writable cannot list __proto__ or constructor.`);
  }
  return {
    authorize: typeof authorize === 'function' ? authorize : undefined,
    hide: hideForbidden ?? hideDefault,
    writable: writable === undefined ? undefined : new Set(writable),
  };
}

function refusal(ctx: RequestContext, hide: boolean): ApiError {
  // spec 5.8: 401 when the caller is not identified, 403 when identified but not allowed.
  if (ctx.identity === undefined) return unauthorized();
  if (hide) return new ApiError(404, ErrorCode.NotFound, `Nothing found at ${ctx.path}.`);
  return forbidden();
}

/** The plugin of {@link accessChecks}: each route's check and writable fields, compiled once. */
class AccessChecksPlugin implements Plugin {
  readonly name = 'access-checks';
  readonly routeConfig = ['authorize', 'hideForbidden', 'writable'];
  private readonly unchecked: 'warn' | 'throw' | 'off';
  private readonly hideDefault: boolean;
  /** Where start-up warnings go: the service's logger, once set up. */
  private logger: { warn(message: string): void } = consoleLogger;
  private readonly compiled = new WeakMap<object, CompiledAccess>();
  /** How long an `authorize` may take to settle: the service's `checkTimeout`. */
  private budget = defaultCheckTimeout;

  constructor(options: AccessChecksOptions) {
    assertKnownKeys('accessChecks()', options, knownOptions);
    const unchecked = options.unchecked ?? 'warn';
    if (!['warn', 'throw', 'off'].includes(unchecked)) {
      throw new TypeError(
        `accessChecks(): unchecked must be 'warn', 'throw' or 'off'; got ${String(unchecked)}.`,
      );
    }
    this.unchecked = unchecked;
    this.hideDefault = options.hideForbidden === true;
  }

  /** Takes the service's logger and `checkTimeout`. */
  setup({ logger, checkTimeout }: PluginSetup): void {
    this.logger = logger;
    this.budget = checkTimeout;
  }

  /** Compiles a route's settings; a route without `authorize` is reported (or refused). */
  onRoute(route: RouteInfo): void {
    this.compiled.set(route.config, compileRoute(route, this.hideDefault));
    // HEAD runs as GET and shares its settings: one finding per route is enough.
    const { unchecked } = this;
    if (route.config.authorize !== undefined || unchecked === 'off' || route.method === 'HEAD') {
      return;
    }
    const finding = `${where(route)} has no access check (spec 4.8): add authorize: (ctx) => …, or authorize: 'public' for an open route.`;
    if (unchecked === 'throw') throw new TypeError(finding);
    this.logger.warn(finding);
  }

  /** Before the body is read: the route's `authorize` check. */
  preParsing(ctx: RequestContext): Step<CheckResult> {
    const access = ctx.route && this.compiled.get(ctx.route.config);
    if (access?.authorize === undefined) return;
    const allowed = access.authorize(ctx);
    if (allowed === true) return;
    if (allowed === false) throw refusal(ctx, access.hide);
    const route = ctx.route!;
    const settled = withinBudget(
      allowed,
      this.budget,
      () => `authorize of ${route.method} ${route.pattern}`,
    ) as Promise<boolean>;
    return settled.then((ok) => {
      if (ok !== true) throw refusal(ctx, access.hide);
    });
  }

  /** Once the body is parsed: only the route's `writable` fields. */
  preHandler(ctx: RequestContext): void {
    const access = ctx.route && this.compiled.get(ctx.route.config);
    if (access?.writable !== undefined) writableCheck(ctx, access.writable);
  }
}

function writableCheck(ctx: RequestContext, writable: ReadonlySet<string>): void {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const refused = Object.keys(body).filter((name) => !writable.has(name));
  if (refused.length === 0) return;
  throw invalidRequest(
    refused.map((name) => ({
      message: `The field "${name.slice(0, 64)}" cannot be written here; writable fields: ${[...writable].join(', ')}.`,
      code: ErrorCode.ReadOnlyField,
    })),
  );
}

/**
 * Server-side access checks on every route (spec 4.8). Each route declares `authorize`, a check
 * that runs after routing and before the body is read (`'public'` marks an open route); a route
 * with neither is reported at start-up, so a forgotten check is found before a request is. A
 * refused caller gets 401 without an identity, else 403, or 404 where `hideForbidden` keeps
 * existence hidden. A route's `writable` list names the body fields clients may write: any other
 * top-level field (`role`, `ownerId`, `__proto__`) is a 400 (code 40030) that names it, before
 * the handler runs.
 *
 * @example
 * ```ts
 * import {
 *   accessChecks,
 *   bearer,
 *   conventions,
 *   createTokenKeys,
 *   defineRoutes,
 *   type RequestContext,
 * } from 'api-conventions';
 *
 * const notes = new Map([['n1', { id: 'n1', ownerId: 'alice', title: 'Tea', text: '' }]]);
 * const patchNote = (ctx: RequestContext) => ({ ...notes.get(ctx.param('id')), ...(ctx.body as object) });
 * const routes = defineRoutes({
 *   '/v1/notes/:id': {
 *     PATCH: {
 *       handler: patchNote,
 *       config: {
 *         authorize: (ctx) => notes.get(ctx.param('id'))?.ownerId === ctx.identity?.subject,
 *         hideForbidden: true,
 *         writable: ['title', 'text'],
 *       },
 *     },
 *   },
 * });
 * const keys = await createTokenKeys();
 * const issuer = 'https://api.example.com';
 * const api = conventions({ routes, plugins: [bearer({ keys, issuer, audience: issuer }), accessChecks()] });
 * ```
 *
 * @category Security
 */
export function accessChecks(options: AccessChecksOptions = {}): Plugin {
  return new AccessChecksPlugin(options);
}
