/** The rate-limit plugin: the service's policies before routing (after authentication for callers with credentials), a route's own after its body is read. */

import type { SentResponse } from '../http/response.ts';
import { type RequestContext, routable, runOf } from '../kernel/context.ts';
import type { CheckResult, Plugin } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import { isPromise, type Step } from '../kernel/steps.ts';
import {
  type PolicySet,
  RateLimiter,
  type RateLimitOptions,
  type RefusedBudget,
} from './limiter.ts';
import type { RatePolicy } from './policy.ts';

declare module '../kernel/context.ts' {
  interface RequestState {
    /**
     * @internal Set by the `rate-limit` plugin on a request that presents credentials on a
     * matched route, until it is counted as its verified caller after authentication; one never
     * counted there is counted when it is sent (refused credentials in a budget of their own).
     */
    rateDeferred?: boolean | undefined;
  }
}

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * This route's own rate policies, checked after the service's, once the body is parsed (so
     * that a policy may count by a form field, such as a login's username). Needs the
     * {@link rateLimit} plugin. @default none
     */
    rateLimit?: readonly RatePolicy[];
  }
}

/**
 * The {@link rateLimit} plugin, with the limiter it runs.
 *
 * @category Rate limits
 */
export class RateLimitPlugin implements Plugin {
  /** The plugin's name. */
  readonly name = 'rate-limit';
  /** The route setting it reads: `rateLimit`. */
  readonly routeConfig = ['rateLimit'];
  /**
   * Every answer counts: a CORS preflight or a CSRF refusal answered by a plugin before this
   * one, and the requests a host answers itself (counted by address), get a 429 past the limit.
   */
  readonly seesEveryRequest = true;
  /** The limiter behind the plugin, for checks of your own over the same store. */
  readonly limiter: RateLimiter;
  /** Pre-routing: the `policies` option on every request; absent without policies. */
  readonly onRequest: Plugin['onRequest'];
  /** After authentication: a request with credentials, as its verified caller; absent without policies. */
  readonly preParsing: Plugin['preParsing'];
  /** Once answered: credentials never counted before; absent without policies. */
  readonly onSend: Plugin['onSend'];
  /** The `policies` option, compiled. */
  private readonly global: PolicySet;
  /** A route's own policies by method and pattern, compiled at start-up. */
  private readonly routePolicies = new Map<string, PolicySet>();
  /** Networks that spent their budget for refused credentials, and which budget, until when. */
  private readonly blocked = new Map<string, RefusedBudget>();

  /** @internal Use {@link rateLimit}. */
  constructor(options: RateLimitOptions = {}) {
    this.limiter = new RateLimiter(options);
    this.global = this.limiter.policies;
    // Without service-wide policies only a route's own are checked: no other hook, no cost.
    const counting = this.global.policies.length > 0;
    this.onRequest = counting ? this.countFirst : undefined;
    this.preParsing = counting ? this.countVerified : undefined;
    this.onSend = counting ? this.countUncounted : undefined;
  }

  /** Compiles a route's `rateLimit` policies at start-up; a mistake is a `TypeError`. */
  onRoute(route: RouteInfo): void {
    const policies = route.config.rateLimit;
    if (policies === undefined) return;
    const where = `route ${route.method} ${route.pattern} rateLimit`;
    this.routePolicies.set(
      `${route.method} ${route.pattern}`,
      this.limiter.compile(policies, where),
    );
  }

  /** After the body is parsed: the route's own policies (a login's, by its username). */
  preHandler(ctx: RequestContext): Step<CheckResult> {
    if (this.routePolicies.size === 0 || ctx.route === undefined) return undefined;
    const set = this.routePolicies.get(`${ctx.route.method} ${ctx.route.pattern}`);
    if (set === undefined) return undefined;
    return settle(this.limiter.check(ctx, set));
  }

  private countFirst(ctx: RequestContext): Step<CheckResult> {
    // hasCredentials may name a caller an identity plugin verified before (ctx.identity).
    // Credentials are verified only on a request that reaches authentication (a route
    // matched, the path rules passed); any other is counted now, as a request without them.
    if (ctx.identity === undefined && ctx.hasCredentials && reachesAuthentication(ctx)) {
      // A caller with credentials is counted as who they are, once the authentication phase
      // has verified them; until then nothing is known of them.
      if (this.blocked.size > 0) {
        const spent = this.blocked.get(this.limiter.networkOf(ctx));
        if (spent !== undefined) this.limiter.refuseSpent(spent);
      }
      ctx.state.rateDeferred = true;
      return undefined;
    }
    return settle(this.limiter.check(ctx, this.global));
  }

  /** The phase after authentication: ctx.identity is the verified caller. */
  private countVerified(ctx: RequestContext): Step<CheckResult> {
    if (ctx.state.rateDeferred !== true) return undefined;
    ctx.state.rateDeferred = false;
    return settle(this.limiter.check(ctx, this.global));
  }

  private countUncounted(ctx: RequestContext, response: SentResponse): void {
    if (ctx.state.rateDeferred !== true) return;
    ctx.state.rateDeferred = false;
    // Answered without reaching preParsing. Credentials accepted (a 403 for a missing scope)
    // count as their caller; credentials answered by something else than their refusal (a
    // preflight, a CSRF refusal) count by network, as requests without them do. Neither is
    // a refused credential, so neither touches the budget below.
    if (ctx.identity !== undefined || response.status !== 401) {
      // The answer is decided: the count is not waited for (it reports its own failures).
      void this.limiter.count(ctx, this.global);
      return;
    }
    // Refused credentials (RFC 9110 §15.5.2): counted by network in a budget of their own;
    // once it is spent, such requests from the network are refused before routing.
    const network = this.limiter.networkOf(ctx);
    const blocked = this.blocked;
    const record = (spent: RefusedBudget | undefined) => {
      if (spent === undefined) return;
      if (blocked.size >= 10_000) blocked.clear();
      blocked.set(network, spent);
    };
    const counted = this.limiter.countRefused(network);
    if (isPromise<RefusedBudget | undefined>(counted)) void counted.then(record);
    else record(counted);
  }
}

/**
 * Limits requests per caller (spec section 8). The `policies` option is checked on every
 * request, unknown paths, 404s and 405s included, in the pre-routing phase, so a scan is
 * limited as much as real use; so are requests another plugin answers there first (a CORS
 * preflight, a CSRF refusal) and, by the client's address, those a host answers itself (a
 * parser error). A route's `config.rateLimit` policies are checked on that route only, after
 * its body is parsed. Each phase is one store call covering all its policies.
 *
 * A limited response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (UTC epoch seconds) of the tightest policy; past the limit the answer is
 * 429 with the error body, an integer `Retry-After` of at least 1 and `Cache-Control: no-store`.
 * A request that presents credentials (`ctx.hasCredentials`, as the identity plugins tell) on a
 * matched route is counted after the authentication phase, by its verified subject. One whose
 * credentials are refused (401) is counted by its network in a budget of its own, and past it
 * the network's unverified credentials get 429 before routing; credentials that were accepted
 * never count there. A request that matches no route is counted at once, by its network.
 *
 * @example
 * ```ts
 * import { conventions, defineRoutes, listOf, rateLimit } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 *
 * const api = conventions({
 *   routes,
 *   plugins: [rateLimit({ policies: [{ limit: 10, window: 1 }, { limit: 1000, window: 3600 }] })],
 * });
 * ```
 *
 * @category Rate limits
 *
 * @see [Rate limits](../../../docs/rate-limits.md) for policies, identities, headers and store
 *   failure, and [Redis](../../../docs/redis.md) for limits shared by several instances.
 */
export function rateLimit(options: RateLimitOptions = {}): RateLimitPlugin {
  return new RateLimitPlugin(options);
}

/** A check's answer as a hook's: nothing, now or later. */
function settle(checked: Step<unknown>): Step<undefined> {
  return checked === undefined || !isPromise(checked) ? undefined : checked.then(nothing);
}

const nothing = (): undefined => undefined;

/**
 * Whether the request goes on to the authentication phase, as the pipeline's front decides: a
 * route serves it (the host's own match where the host routes, else the library's), and the path
 * rules let it through.
 */
function reachesAuthentication(ctx: RequestContext): boolean {
  return (runOf(ctx).routed ?? ctx.route !== undefined) && routable(ctx);
}
