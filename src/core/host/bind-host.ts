/**
 * The one host binding (CONTRIBUTING.md, "One binding owns the run"): every host's request runs
 * through it — handle, or enter, check, admit, guard, serve, finish, fail — built once from the
 * few things an adapter knows of its host (how to read its request, what its router dispatched).
 */

import type { HeaderInit, ResponseHeaders } from '../http/headers.ts';
import { HeaderBag } from '../http/headers.ts';
import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { type RequestContext, type RequestInput, runOf } from '../kernel/context.ts';
import type { Guarded } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { AppRoute, RouteConfig, RouteSettings } from '../kernel/route-types.ts';
import { andThen, attempt, type Step } from '../kernel/steps.ts';
import type { LintFinding, LintRoute } from '../lint/index.ts';
import { startHeaders } from '../pipeline/answers.ts';
import {
  type Conventions,
  handleRouted,
  serviceOf,
  toConventions,
} from '../pipeline/conventions.ts';
import { answerUnrouted, front, handleRoute, run } from '../pipeline/dispatch.ts';
import { admitAnonymous, checkDispatched, checkEntry, isOpen } from '../pipeline/fail-closed.ts';
import { responded } from '../pipeline/observe.ts';
import type { ConventionsOptions } from '../pipeline/options.ts';
import { raiseUnrouted } from '../pipeline/pre-routing.ts';
import { bareArray, prepareBody, toOutgoing } from '../pipeline/request.ts';
import { failure, respond } from '../pipeline/respond.ts';
import type { Service } from '../pipeline/service.ts';
import { checkBinding, type HostBinding } from './binding.ts';
import { shuttingDown } from './closing.ts';
import {
  type Companion,
  companionConflict,
  companionWarning,
  encodesAfter,
  knownCompanions,
} from './companions.ts';
import { fromHostError, type HostErrorFacts } from './host-errors.ts';
import { answeredByRouteView } from './router-errors.ts';
import { SettingsMemo } from './settings-memo.ts';
import { joinWildcards } from './wildcards.ts';

const held = Symbol.for('api-conventions.context');

type Holder = { [held]?: RequestContext };

/**
 * The context a host binding keeps for a native request (Express's `req`, Fastify's request, a
 * `Request`), or `undefined` when no binding saw it: how `identityOf` reads the caller.
 *
 * @category Host binding
 */
export function heldContext(native: object): RequestContext | undefined {
  return (native as Holder)[held];
}

/**
 * A host bound to a service: the steps an adapter calls, each taking the host's own request
 * object (where the request's context is kept).
 *
 * @category Host binding
 */
export class BoundHost<Native extends object> {
  /** The service it serves. */
  readonly api: Conventions;
  private readonly service: Service;
  private readonly binding: HostBinding<Native>;
  private routesSeen = -1;
  private readonly memo = new SettingsMemo();
  private readonly found = new Set<Companion>();
  private closed = false;

  constructor(api: Conventions | ConventionsOptions, binding: HostBinding<Native>) {
    this.api = toConventions(api);
    this.service = serviceOf(this.api);
    this.binding = checkBinding(binding);
  }

  /** The service's logger. */
  get logger(): Conventions['logger'] {
    return this.api.logger;
  }

  /** Headers every response carries: hosts put them on the app's own responses too. */
  get alwaysOnHeaders(): Readonly<ResponseHeaders> {
    return this.service.options.response.alwaysOn;
  }

  /** The default body limit in bytes. */
  get bodyLimit(): number {
    return this.service.options.bodyLimit;
  }

  /**
   * Whether a plugin observes every request's final status (`onResponse`): the host then reports
   * each response it sends, the app's own included, through {@link BoundHost.sent}.
   */
  get observes(): boolean {
    return this.service.options.onResponse.length > 0;
  }

  /**
   * The host's response to a request went out (or the request ended) with `status`: the plugins
   * that observe requests hear it, once per request. Call it where the host knows the final
   * status of every response, the app's own handlers' included (Express: the response's `close`;
   * Fastify: `onResponse`; Hono: the middleware, once it has the response). A request whose
   * context was never opened, or already reported, is ignored.
   */
  sent(native: Native, status: number): void {
    const ctx = this.held(native);
    if (ctx !== undefined) responded(this.service.options, ctx, status);
  }

  /**
   * The context kept for this request, if one was opened.
   *
   * @internal
   */
  held(native: Native): RequestContext | undefined {
    return (native as Holder)[held];
  }

  /**
   * The core's input for the request, where the adapter hands over its body once the host has it
   * (a reader of the stream, or `parsedBody`: what a body parser made of it).
   *
   * @internal
   */
  inputOf(native: Native): RequestInput {
    return runOf(this.context(native)).input;
  }

  /**
   * Whether the request's target cannot be routed (malformed percent-encoding, a refused head).
   *
   * @internal
   */
  unroutable(native: Native): boolean {
    return runOf(this.context(native)).problem !== undefined;
  }

  /**
   * The request's context: the one kept for it, or a new one, matched and kept.
   *
   * @internal
   */
  context(native: Native): RequestContext {
    return (native as Holder)[held] ?? this.open(native);
  }

  private open(native: Native): RequestContext {
    const ctx = this.service.open(this.binding.input(native));
    (native as Holder)[held] = ctx;
    return ctx;
  }

  private sync(native: Native): void {
    const source = this.binding.appRoutes;
    if (source === undefined) return;
    const size = source.size(native);
    if (size === this.routesSeen) return;
    this.routesSeen = size;
    this.service.useAppRoutes(source.list(native));
  }

  /**
   * Before the host's router runs the app's handlers: opens the context, runs pre-routing and the
   * path rules, then the checks of the route the host will run (authentication, `preParsing`),
   * failing closed where the host could run something the library cannot see. The response that
   * stops the request (a 503 once the host closes: {@link BoundHost.close}), or `undefined` to let
   * the host go on.
   */
  enter(native: Native): Step<ApiResponse | undefined> {
    if (this.closed) return this.closing(native);
    this.sync(native);
    const ctx = this.open(native);
    const { options } = this.service;
    const { match, checkpoints } = this.binding;
    const stop = attempt(
      () => front(options, ctx, checkpoints ? null : match && (() => match(native, ctx))),
      (error) => failure(ctx, error, options.logger),
    );
    return andThen(stop, (out) =>
      out === undefined ? undefined : respond(options.response, ctx, out),
    );
  }

  /**
   * {@link BoundHost.enter}, then, where the request is for a route of the library's own table,
   * that route served end to end ({@link BoundHost.serve}, after `beforeServe`, where a host hands
   * over its body): the response to send, or `undefined` to let the host's router go on.
   */
  front(native: Native, beforeServe?: () => void): Step<ApiResponse | undefined> {
    return andThen(this.enter(native), (stop) => {
      if (stop !== undefined) return stop;
      const { route, params } = this.context(native);
      if (route === undefined || route.app === true) return undefined;
      beforeServe?.();
      return this.serve(native, route as RouteInfo, params);
    });
  }

  /**
   * The check point where the host enters code of the app that may answer: one of its routes
   * (`route`, with the host's decoded `params`), or middleware the library cannot read
   * (`undefined`), which a caller without verified credentials passes only where `opensAhead`
   * says an open route lies ahead. The response that refuses the request, or `undefined` to let
   * the host enter; nothing on a request the binding has not opened (code before the
   * conventions' first step).
   */
  check(
    native: Native,
    route: RouteSettings | undefined,
    params?: Readonly<Record<string, string>>,
    opensAhead?: () => boolean,
  ): Step<ApiResponse | undefined> {
    const ctx = this.held(native);
    if (ctx === undefined) return undefined;
    const { options } = this.service;
    return attempt(
      () =>
        andThen(
          checkEntry(options, ctx, route, params && joinWildcards(params), opensAhead),
          (stop) =>
            stop === undefined
              ? undefined
              : respond(options.response, ctx, toOutgoing(options, ctx, stop)),
        ),
      (error) => respond(options.response, ctx, failure(ctx, error, options.logger)),
    );
  }

  /**
   * Whether `route` lets a caller without credentials through (every identity plugin says so).
   *
   * @internal
   */
  opens(route: RouteSettings): boolean {
    return isOpen(this.service.options.identities, route);
  }

  /**
   * Where the host is about to run one of the app's routes after the one checked (a handler of
   * the first called `next()`), or, with `undefined`, middleware the library cannot read: a
   * caller without accepted credentials is refused when it does not let one through. Throws the
   * refusal (an `ApiError`), for the host's error handling to answer.
   */
  admit(native: Native, route: RouteSettings | undefined): void {
    const ctx = this.held(native);
    if (ctx !== undefined) admitAnonymous(this.service.options, ctx, route);
  }

  /**
   * Before one of the app's handlers with settings (a guard): the route's checks where they did
   * not run, then its body, read or taken from the host's parser and checked against its rules,
   * then the `preHandler` checks. Gives `{ response }` to send, or the checked body.
   */
  guard(
    native: Native,
    route: RouteSettings,
    params?: Readonly<Record<string, string>>,
  ): Step<Guarded> {
    const ctx = this.context(native);
    const { options } = this.service;
    const stop = (out: OutgoingResponse): Step<Guarded> =>
      andThen(respond(options.response, ctx, out), (response) => ({ response }));
    return attempt(
      () =>
        andThen(checkDispatched(options, ctx, route, params), (early) =>
          early !== undefined
            ? stop(toOutgoing(options, ctx, early))
            : andThen(prepareBody(options, ctx, runOf(ctx).input), (r) =>
                r === undefined
                  ? { response: undefined, body: ctx.body }
                  : stop(toOutgoing(options, ctx, r)),
              ),
        ),
      (error) => stop(failure(ctx, error, options.logger)),
    );
  }

  /**
   * A request the library routes end to end, on a host without a router of its own (node:http, a
   * bare `fetch` handler): the whole run, as `Conventions.handle` runs it, read from the host's
   * request. No later step needs its context, so none is kept on it.
   */
  handle(native: Native): Step<ApiResponse> {
    return handleRouted(this.service.options, this.service.open(this.binding.input(native)));
  }

  /**
   * A table route the host dispatched (`route`): its checks where they did not run, body and
   * handler, then the response phases. Without `route`, behind the host's router: the router's
   * answer from the route view (404 naming the path, 405 with `Allow`, 204 with `Allow` for
   * OPTIONS). On a request no `enter` saw, the whole pipeline, the library routing.
   */
  serve(
    native: Native,
    route?: RouteInfo,
    params?: Readonly<Record<string, string>>,
  ): Step<ApiResponse> {
    const { options } = this.service;
    const ctx = this.held(native);
    if (ctx === undefined) return this.handle(native);
    // A table route follows the library's path rules: the host ran it for a path the library's
    // own router does not match to it (an empty parameter, a trailing slash): nothing is there.
    if (route === undefined || route !== runOf(ctx).viewed) {
      if (route !== undefined) ctx.route = undefined;
      return run(options, ctx, () => answerUnrouted(options, ctx));
    }
    return run(options, ctx, () =>
      andThen(checkDispatched(options, ctx, route, params), (stop) =>
        stop === undefined ? handleRoute(options, ctx, route) : toOutgoing(options, ctx, stop),
      ),
    );
  }

  /**
   * One of the app's handlers answered with a value (`res.json(value)`): through the response
   * phases, as a table route's value goes; a bare array is a logged 500 (spec 2.7). `headers` are
   * the host's response headers so far; without them the response starts with the context's.
   */
  finish(native: Native, status: number, body: unknown, headers?: HeaderInit): Step<ApiResponse> {
    const ctx = this.context(native);
    const answer = run(this.service.options, ctx, () => {
      if (Array.isArray(body)) throw bareArray();
      return {
        status,
        headers: headers === undefined ? startHeaders(ctx) : new HeaderBag(headers),
        body,
      };
    });
    if (ctx.method !== 'HEAD') return answer;
    return andThen(answer, (response) => {
      const length = response.headers['content-length'];
      runOf(ctx).headLength = typeof length === 'string' ? length : undefined;
      return response;
    });
  }

  /**
   * The `Content-Length` of the body left out of the answer {@link BoundHost.finish} gave a HEAD
   * request (GET's length, RFC 9110 §9.3.2), for a host that counts the empty body it then sends
   * instead (Fastify's HEAD routes); `undefined` before that answer, and on any other request.
   */
  headLength(native: Native): string | undefined {
    const ctx = this.held(native);
    return ctx === undefined ? undefined : runOf(ctx).headLength;
  }

  /**
   * The spec's error response for anything thrown while the host handled the request, the host
   * framework's own errors included (a body parser's, a schema validator's: `fromHostError`,
   * with what the host knows of the request in `facts`); one the host raised before `enter` is
   * still seen by the plugins that see every request. A router's error about a request it cannot
   * route is the route view's answer instead ({@link BoundHost.serve}: 400, 404 or 405).
   */
  fail(native: Native, error: unknown, facts?: HostErrorFacts): Step<ApiResponse> {
    if (answeredByRouteView(error, facts?.unmatched, () => this.unroutable(native))) {
      return this.serve(native);
    }
    const ctx = this.context(native);
    const { options } = this.service;
    const mapped = fromHostError(error, facts);
    return run(options, ctx, () => raiseUnrouted(options, ctx, mapped));
  }

  /**
   * The answer to a request that arrives while the host closes: 503 with the error body and
   * `Connection: close`, seen by the plugins that see every request.
   *
   * @internal
   */
  closing(native: Native): Step<ApiResponse> {
    return this.fail(native, shuttingDown());
  }

  /**
   * The host's app closes (Fastify's `preClose`): every request entered from now on gets
   * 503 with the error body and `Connection: close`.
   */
  close(): void {
    this.closed = true;
  }

  /**
   * The settings of one of the app's routes, checked now, at start-up (a misspelt key or a bad
   * value is a `TypeError`), compiled, and seen by the plugins' `onRoute`.
   */
  settingsOf(method: string, pattern: string, config: RouteConfig = {}): RouteSettings {
    return this.service.routeSettings(method, pattern, config);
  }

  /**
   * The settings of the app's route the host dispatched, by what it dispatched (`key`: Express's
   * route, Fastify's route config, a Hono guard's settings or its path), the method and the
   * pattern: read (`read`: the route's settings, or a table route the host runs) and compiled
   * ({@link BoundHost.settingsOf}) the first time they are met, and again when `version` changes
   * (handlers added to the route).
   *
   * @internal
   */
  settingsFor(
    key: object | string,
    method: string,
    pattern: string,
    read: () => RouteConfig | undefined | { table: RouteSettings },
    version = 0,
  ): RouteSettings {
    return this.memo.get(key, `${method} ${pattern}`, version, () => {
      const found = read();
      return found !== undefined && 'table' in found
        ? (found.table as RouteSettings)
        : this.settingsOf(method, pattern, found as RouteConfig | undefined);
    });
  }

  /**
   * A companion package the host found beside the conventions: named once in a warning that says
   * what to keep where it doubles up one of the service's plugins, and adapted to where the
   * library can (a compression companion: strong entity tags differ by the codings a request
   * accepts).
   *
   * @see [What you already have](../../../docs/existing-apps.md#what-you-already-have), each
   *   companion and what becomes of it.
   */
  companion(name: Companion): void {
    if (this.found.has(name)) return;
    this.found.add(name);
    if (encodesAfter(name)) this.service.options.downstream.encodes = true;
    const warning = companionWarning(name, this.api.plugins);
    if (warning !== undefined) this.logger.warn(warning);
  }

  /**
   * The companions of a host that knows its plugins by their package's name (Fastify's
   * `hasPlugin`): each the core knows is looked up, at start-up, and taken as
   * {@link BoundHost.companion} takes it; one that cannot run beside a plugin of the service is a
   * `TypeError` that says which to keep. Gives the companions found.
   *
   * @internal
   */
  findCompanions(has: (name: Companion) => boolean): ReadonlySet<Companion> {
    const found = new Set(knownCompanions.filter((name) => has(name)));
    for (const name of found) {
      const refused = companionConflict(name, this.api.plugins);
      if (refused !== undefined) throw new TypeError(refused);
      this.companion(name);
    }
    return found;
  }

  /**
   * Hands the app's routes to the route view at once (a host that lists them when ready).
   *
   * @internal
   */
  useAppRoutes(routes: readonly AppRoute[]): void {
    this.service.useAppRoutes(routes);
  }

  /** Lints the app's own route patterns (spec 4.1); findings are warnings, never errors. */
  lint(routes: readonly LintRoute[]): LintFinding[] {
    return this.service.lint(routes, true);
  }
}

/**
 * Binds a service to a host: the steps every adapter runs, from the binding it supplies. It is
 * for the author of an adapter, for a framework none of the package's adapters serves; a service
 * uses its host's adapter (`api-conventions/node`, `/express`, `/fastify`, `/fetch`), each built
 * on it, and never calls it.
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * import { type ApiResponse, bindHost, type RequestInput } from 'api-conventions/host';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * // A host whose request object is the core's input itself, with no router of its own.
 * const host = bindHost<RequestInput>(api, { input: (input) => input });
 *
 * export async function serve(input: RequestInput): Promise<ApiResponse> {
 *   const stopped = await host.enter(input); // pre-routing, the path rules, the route's checks
 *   return stopped ?? host.serve(input); // the table's route, or 404, 405 and OPTIONS
 * }
 * ```
 *
 * @category Host binding
 *
 * @see [Extending](../../../docs/extending.md#hosts-with-their-own-router), the host binding for a
 *   host with its own router.
 */
export function bindHost<Native extends object>(
  api: Conventions | ConventionsOptions,
  binding: HostBinding<Native>,
): BoundHost<Native> {
  return new BoundHost(api, binding);
}
