/**
 * The checks of a request on a host with a router of its own, decided where the host enters the
 * code that answers (CONTRIBUTING.md, "Fail closed, where the host enters"): the route it entered,
 * with that route's options, or middleware the library cannot read, which a caller without
 * credentials passes only on the way to an open route. A caller without accepted credentials
 * never reaches a route that does not let one through.
 */
import { unauthorized } from '../errors/helpers.ts';
import { type RequestContext, runOf } from '../kernel/context.ts';
import type { CheckResult } from '../kernel/plugin.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { Phase } from '../kernel/run.ts';
import { andThen, isPromise, runHooks, type Step } from '../kernel/steps.ts';
import type { IdentityPlan, ResolvedConventionsOptions } from './options.ts';

/**
 * What a host will run for one request, read from its own match: never the library's guess.
 *
 * @category Host binding
 */
export interface HostMatch {
  /**
   * The app's routes that could serve the request, in the order the host tries them (the first
   * is the one it dispatches); empty when none could.
   */
  readonly routes: readonly RouteSettings[];
  /** The first route's decoded path parameters. @default {} */
  readonly params?: Readonly<Record<string, string>> | undefined;
  /**
   * Whether a handler the library cannot read could answer the request (middleware on its path,
   * a mounted app) where no open route lies ahead of it: such a request needs credentials there.
   * @default false
   */
  readonly others?: boolean | undefined;
  /**
   * Whether the host binding checks each later route as the host reaches it (a handler of the
   * first calling `next()`), through {@link BoundHost.admit}: a caller without credentials may
   * then go on to an open first route, and is refused where a closed one is reached. Without it,
   * such a caller passes only when every route that could serve the request is open.
   * @default false
   */
  readonly checksEach?: boolean | undefined;
}

type Options = ResolvedConventionsOptions;

const open = new WeakMap<RouteSettings, boolean>();

/** Whether every identity plugin lets a caller without credentials through `route` (cached). */
export function isOpen(identities: readonly IdentityPlan[], route: RouteSettings): boolean {
  let result = open.get(route);
  if (result === undefined) {
    result = identities.every((p) => p.allowsAnonymous?.(route) === true);
    open.set(route, result);
  }
  return result;
}

/** Whether a caller without credentials may reach what the host could run for `match`. */
function needsIdentity(identities: readonly IdentityPlan[], match: HostMatch): boolean {
  if (identities.length === 0) return false;
  if (match.others === true) return true;
  for (const route of match.routes) if (!isOpen(identities, route)) return true;
  return false;
}

/**
 * Refuses a request without accepted credentials, checking nothing route-specific: each identity
 * plugin's `requireIdentity`, or its `authenticate` on `strict` (a route that needs credentials;
 * without one, a plain 401).
 */
function requireIdentity(
  identities: readonly IdentityPlan[],
  ctx: RequestContext,
  strict: RouteSettings | undefined,
  from = 0,
): Step<CheckResult> {
  for (let i = from; i < identities.length; i++) {
    const plan = identities[i]!;
    let result: Step<CheckResult>;
    if (plan.requireIdentity !== undefined) result = plan.requireIdentity(ctx);
    else if (strict === undefined) throw unauthorized('Send credentials for this request.');
    else {
      const route = ctx.route;
      ctx.route = strict;
      try {
        result = plan.authenticate(ctx);
      } finally {
        ctx.route = route;
      }
    }
    if (result === undefined) continue;
    return andThen(result, (stop) =>
      stop === undefined ? requireIdentity(identities, ctx, strict, i + 1) : stop,
    );
  }
  return undefined;
}

/**
 * The checks of the route the host dispatches, decided on the host's own match: `ctx.route` and
 * `ctx.params` become the first route's and its authentication runs; then, when a route (or
 * unreadable middleware) that could serve the request needs credentials: credentials the request
 * presents are verified, and a request without them is refused, unless the binding checks each
 * later route as it is reached (then the refusal waits for a closed route). Then the first
 * route's `preParsing` checks.
 *
 * @category Plugins and pipeline
 */
export function checkMatch(
  options: Options,
  ctx: RequestContext,
  match: HostMatch,
): Step<CheckResult> {
  const { identities } = options;
  // A table route follows the library's path rules: one the host runs for a path the library's
  // own router does not match to it (an empty parameter, a trailing slash) serves nothing.
  const run = runOf(ctx);
  if (match.routes.some((route) => route.app !== true && route !== run.viewed)) {
    match = { ...match, routes: match.routes.filter((r) => r.app === true || r === run.viewed) };
  }
  const first = match.routes[0];
  // The view decoded the parameters of the route it matched, by the table's own names: kept
  // when the host runs that very route.
  if (ctx.route !== first || first === undefined) ctx.params = match.params ?? {};
  ctx.route = first;
  run.checked = first;
  run.reach(Phase.checked);
  const gate = (): Step<CheckResult> => {
    if (ctx.identity !== undefined || !needsIdentity(identities, match)) return undefined;
    // Refused now: nothing else could serve it, or nothing checks the later routes; verified
    // now: credentials presented, so that a later route finds its caller known.
    if (first !== undefined && match.checksEach === true && !ctx.hasCredentials) return undefined;
    const strict = match.routes.find((route) => !isOpen(identities, route));
    return requireIdentity(identities, ctx, strict);
  };
  if (first === undefined) return gate();
  return andThen(runHooks(options.authenticate, ctx), (stop) =>
    stop !== undefined
      ? stop
      : andThen(gate(), (refused) => refused ?? runHooks(options.preParsing, ctx)),
  );
}

/**
 * Where the host is about to run a route after the one checked (a handler called `next()`): a
 * caller without accepted credentials is refused there when `route` (or, for `undefined`,
 * middleware the library cannot read) does not let one through. Synchronous: credentials the
 * request presented were verified when it was checked. Throws the refusal.
 *
 * @category Plugins and pipeline
 */
export function admitAnonymous(
  options: Options,
  ctx: RequestContext,
  route: RouteSettings | undefined,
): void {
  const { identities } = options;
  if (ctx.identity !== undefined || identities.length === 0) return;
  if (route !== undefined && (runOf(ctx).checked === route || isOpen(identities, route))) return;
  const refused = requireIdentity(identities, ctx, route);
  if (refused === undefined) return;
  // A check that would wait (credentials to verify) cannot run here: refuse as unauthenticated.
  if (isPromise(refused)) refused.then(undefined, () => {});
  throw unauthorized('Send credentials for this request.');
}

/**
 * The check where a host enters code of the app that may answer, decided on exactly what it
 * entered: one of its routes (`route`, the settings it was declared with) gets its checks
 * (authentication, which refuses a caller without accepted credentials where the route needs
 * them, then `preParsing`), once, and again only for another route; middleware the library
 * cannot read (`undefined`) lets a caller without verified credentials through only on the way to
 * an open route (`opensAhead`), and otherwise verifies what the request presents, or refuses it.
 * A table route the library's own router does not match to the path (an empty parameter, a
 * trailing slash) is not checked: its handler answers that nothing is there. The route the view
 * matched keeps the parameters the view decoded, by the table's own names.
 *
 * @category Plugins and pipeline
 */
export function checkEntry(
  options: Options,
  ctx: RequestContext,
  route: RouteSettings | undefined,
  params: Readonly<Record<string, string>> | undefined,
  opensAhead?: () => boolean,
): Step<CheckResult> {
  if (route !== undefined) {
    if (route === runOf(ctx).viewed) return checkDispatched(options, ctx, route, undefined);
    if (route.app !== true) return undefined;
    return checkDispatched(options, ctx, route, params);
  }
  const { identities } = options;
  if (ctx.identity !== undefined || identities.length === 0) return undefined;
  if (opensAhead?.() === true) return undefined;
  return requireIdentity(identities, ctx, undefined);
}

/**
 * The checks of a route the host dispatched, where they did not run yet (another route than the
 * one checked, reached by the host's own order): its authentication and `preParsing`.
 *
 * @category Plugins and pipeline
 */
export function checkDispatched(
  options: Options,
  ctx: RequestContext,
  route: RouteSettings,
  params: Readonly<Record<string, string>> | undefined,
): Step<CheckResult> {
  const run = runOf(ctx);
  if (run.checked === route) return undefined;
  if (params !== undefined) ctx.params = params;
  ctx.route = route;
  run.checked = route;
  run.reach(Phase.checked);
  return andThen(runHooks(options.authenticate, ctx), (stop) =>
    stop === undefined ? runHooks(options.preParsing, ctx) : stop,
  );
}
