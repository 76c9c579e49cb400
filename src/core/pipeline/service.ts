/**
 * What one `conventions()` call compiled, and the state it keeps while it serves: the settings,
 * the route view (the table and the app's own routes) and the answers built once. `Conventions`
 * shows a service author its part; the host binding (src/core/host) reaches the rest.
 */

import {
  openContext,
  type RequestContext,
  type RequestInput,
  routable,
  runOf,
} from '../kernel/context.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { AppRoute, RouteConfig, RouteSettings } from '../kernel/route-types.ts';
import type { Step } from '../kernel/steps.ts';
import {
  checkRequestHead,
  type Refusal,
  type RefusalResponse,
  refusalError,
  toRefusalResponse,
} from '../limits/index.ts';
import { formatFindings, type LintFinding, type LintRoute, lintRoutes } from '../lint/index.ts';
import { checkRouteConfig } from '../routing/check-config.ts';
import { compileView } from '../routing/route-view.ts';
import type { Router } from '../routing/router.ts';
import { received } from './observe.ts';
import type { ResolvedConventionsOptions } from './options.ts';
import { countedRefusal } from './pre-routing.ts';
import { compileRoute } from './request.ts';

/**
 * The compiled service behind a `Conventions`.
 *
 * @category Host binding
 */
export class Service {
  /** The compiled options. */
  readonly options: ResolvedConventionsOptions;
  /** The route view: the table, and the app's routes once a host handed them over. */
  view: Router;
  private readonly warned = new Set<string>();
  private readonly seen = new WeakSet<RouteInfo>();
  // Refusal responses are the same bytes every time: built once per kind, on first use.
  private readonly refusalResponses = new Map<Refusal, RefusalResponse>();

  constructor(options: ResolvedConventionsOptions) {
    this.options = options;
    this.view = options.router;
  }

  /**
   * The context of a request, its target normalised once and matched against the route view:
   * `ctx.route`, `ctx.params` and `ctx.allowed` are set before any hook runs. A head that must be
   * refused before routing (a URI over `uriLimit`, an unknown `Expect`, no `Host`) is answered
   * after the pre-routing hooks saw the request.
   */
  open(input: RequestInput): RequestContext {
    const { options } = this;
    const ctx = openContext(input, options.trust);
    const run = runOf(ctx);
    run.credentialTests = options.credentialTests;
    run.logs = options.logs;
    const refused = checkRequestHead(input, options.uriLimit);
    if (refused !== undefined) run.problem = refused;
    else if (routable(ctx) || (run.upperCase && options.mixedCaseParameters)) {
      try {
        const found = this.view.lookup(ctx.method, ctx.path);
        if (found.kind !== 'notFound') {
          // The view matches literal segments case-sensitively (they are lower-case), so a path
          // it matched has its upper-case letters in parameter values only: allowed by option.
          run.upperCase = false;
          ctx.allowed = found.allow;
          if (found.kind === 'found') {
            ctx.route = found.route;
            run.viewed = found.route;
            ctx.params = found.params;
          }
        }
      } catch (error) {
        run.problem = error; // a parameter with malformed percent-encoding: 400 by the path rules
      }
    }
    if (options.onReceive.length > 0) received(options, ctx);
    return ctx;
  }

  /**
   * Lints route patterns against the path rules (spec 4.1) as the `lint` option says. The app's
   * own routes (`app`) are only ever warned about: the library did not declare them.
   */
  lint(routes: readonly LintRoute[], app = false): LintFinding[] {
    const { lint, lintOptions, logger } = this.options;
    if (lint === 'off' || routes.length === 0) return [];
    const findings = lintRoutes(routes, lintOptions);
    if (findings.length === 0) return findings;
    const text = formatFindings(findings);
    if (!app && (lint === 'throw' || findings.some((f) => f.severity === 'error'))) {
      throw new TypeError(`The routes break the path rules:\n${text}`);
    }
    logger.warn(`route lint${app ? " (the app's own routes)" : ''}:\n${text}`);
    return findings;
  }

  /** The app's own routes the view holds. */
  get appRoutes(): readonly RouteInfo[] {
    return this.view.routes.filter((r) => r.app === true);
  }

  /**
   * The app's own routes join the table in the route view (`Allow`, 405, OPTIONS, preflights).
   * Compiled here, once per change; a route the view cannot hold is named in a warning, once.
   * Runs the plugins' `onRoute` on each new route.
   */
  useAppRoutes(routes: readonly AppRoute[]): void {
    const { options } = this;
    this.view = compileView(options.router, routes, options.configKeys, (route, why) => {
      const key = `${route.method} ${route.pattern}`;
      if (this.warned.has(key)) return;
      this.warned.add(key);
      options.logger.warn(
        `The app's own route ${key} is not in the route view (${why}): its path gets no Allow, 405 or CORS preflight from the library. Its requests are still checked on the route the host runs.`,
      );
    });
    for (const route of this.view.routes) {
      if (!route.app || this.seen.has(route)) continue;
      this.seen.add(route);
      compileRoute(route);
      for (const hook of options.onRoute) hook(route);
    }
  }

  /**
   * The settings of one of the app's own routes, checked once (a misspelt key or a bad value is a
   * `TypeError`), compiled, and seen by the plugins' `onRoute`.
   */
  routeSettings(method: string, pattern: string, config: RouteConfig): RouteSettings {
    const frozen = Object.freeze({ ...config });
    checkRouteConfig(
      `Route "${method} ${pattern}" config`,
      frozen,
      this.options.configKeys,
      method,
    );
    const settings: RouteSettings = Object.freeze({ method, pattern, config: frozen, app: true });
    compileRoute(settings);
    for (const hook of this.options.onRoute) hook(settings as RouteInfo);
    return settings;
  }

  /**
   * The answer to a request the host refused before the library ran (an HTTP parser error, a
   * header timeout, `CONNECT`), built once per kind.
   */
  refusalResponse(kind: Refusal): RefusalResponse {
    let answer = this.refusalResponses.get(kind);
    if (answer === undefined) {
      answer = toRefusalResponse(
        refusalError(kind, this.options.uriLimit),
        this.options.response.alwaysOn,
      );
      this.refusalResponses.set(kind, answer);
    }
    return answer;
  }

  /** {@link Service.refusalResponse}, counted by the client's address by the plugins that see every request. */
  refusalResponseFor(kind: Refusal, remoteAddress: string | undefined): Step<RefusalResponse> {
    return countedRefusal(this.options, kind, remoteAddress, this.refusalResponse(kind));
  }
}
