/** `conventions(options)`: compiles everything once; the service author's view of the result. */

import type { Logger } from '../errors/logger.ts';
import type { ApiResponse } from '../http/response.ts';
import type { RequestContext, RequestInput } from '../kernel/context.ts';
import type { RouteInfo, RouteTable } from '../kernel/route-table.ts';
import { andThen, type Step } from '../kernel/steps.ts';
import type { TypedRoutes } from '../validation/typed-route.ts';
import { front, rest, run } from './dispatch.ts';
import { responded } from './observe.ts';
import {
  type ConventionsOptions,
  type ResolvedConventionsOptions,
  resolveConventionsOptions,
} from './options.ts';
import { compileRoute } from './request.ts';
import { Service } from './service.ts';

const brand = Symbol.for('api-conventions.Conventions');
const jsonOnly: readonly string[] = Object.freeze(['application/json']);

let serviceOfApi: (api: Conventions) => Service | undefined;

/**
 * A service, compiled once from {@link ConventionsOptions}: hand it to an adapter
 * (`toNodeHandler(api)`, `toExpressMiddleware(api)`, `toFastifyPlugin(api)`,
 * `toFetchHandler(api)`), or answer a request in-process with `handle`. What a host needs beyond
 * that lives in `api-conventions/host`.
 *
 * @example
 * ```ts
 * import { type Conventions, conventions } from 'api-conventions';
 *
 * const api: Conventions = conventions({
 *   routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
 * });
 * // In-process, as a test does: no server, no adapter.
 * const response = await api.handle({
 *   method: 'GET',
 *   url: '/v1/books',
 *   headers: new Headers({ accept: 'application/json' }),
 * });
 * console.log(response.status, response.body); // 200 {"books":[],"hasNext":false}
 * ```
 *
 * @category Start here
 */
export class Conventions {
  /** Marks a `Conventions`, for `isConventions` across copies of the package. */
  readonly [brand] = true;
  readonly #service: Service;

  static {
    serviceOfApi = (api) => (#service in api ? api.#service : undefined);
  }

  constructor(options: ConventionsOptions = {}) {
    const service = new Service(resolveConventionsOptions(options));
    this.#service = service;
    for (const route of service.options.router.routes) compileRoute(route);
    service.lint(
      service.options.router.routes.map((r) =>
        r.config.deprecation === undefined
          ? { method: r.method, path: r.pattern }
          : { method: r.method, path: r.pattern, deprecated: r.config.deprecation },
      ),
    );
    for (const hook of service.options.onReady) hook(this);
  }

  /** Every declared route (HEAD included where GET is), in declaration order. */
  get routes(): readonly RouteInfo[] {
    return this.#service.options.router.routes;
  }

  /**
   * The app's own routes a host handed over (Express, Fastify and Hono routes beside the table),
   * with the settings it knows of them; empty until the host did (on its first request, or when
   * Fastify is ready).
   */
  get appRoutes(): readonly RouteInfo[] {
    return this.#service.appRoutes;
  }

  /** The logger faults and warnings go to, guarded so that it never throws. */
  get logger(): Required<Logger> {
    return this.#service.options.logger;
  }

  /** The names of the installed plugins, in the order they run (`'bearer'`, `'rate-limit'`…). */
  get plugins(): readonly string[] {
    return this.#service.options.pluginNames;
  }

  /**
   * The media types `route` answers in, successes and errors alike: what the content
   * negotiation plugin offers there (its vendor tree's own type included), JSON without one.
   */
  mediaTypesOf(route: RouteInfo): readonly string[] {
    return this.#service.options.mediaTypes?.(route) ?? jsonOnly;
  }

  /**
   * Answers one request end to end, the library routing it: the route view's match, pre-routing
   * hooks, path rules, the route's checks (authentication, `preParsing`), body, handler, or the
   * router's answers (404, 405, OPTIONS), then the response phases. Never throws: every failure
   * becomes its error response. Returns synchronously when nothing on the way is asynchronous.
   * Handy in tests: `await api.handle({ method: 'GET', url: '/v1/books', headers })`.
   */
  handle(input: RequestInput): Step<ApiResponse> {
    const service = this.#service;
    return handleRouted(service.options, service.open(input));
  }
}

/**
 * The whole run of a request the library routes (its context opened and matched): pre-routing,
 * path rules, the route's checks, body, handler or the router's answers, the response phases;
 * its final status to the plugins that observe requests.
 *
 * @category Host binding
 */
export function handleRouted(
  options: ResolvedConventionsOptions,
  ctx: RequestContext,
): Step<ApiResponse> {
  const result = run(options, ctx, () =>
    andThen(front(options, ctx), (stop) => stop ?? rest(options, ctx)),
  );
  if (options.onResponse.length === 0) return result;
  // The library answered the whole request: its status is final here.
  return andThen(result, (response) => {
    responded(options, ctx, response.status);
    return response;
  });
}

/**
 * The compiled service behind a {@link Conventions}, for the host binding.
 *
 * @category Host binding
 */
export function serviceOf(api: Conventions): Service {
  const service = serviceOfApi(api);
  if (service === undefined) {
    throw new TypeError('Not a Conventions built by conventions() of this copy of the package.');
  }
  return service;
}

/**
 * Tells whether a value is a {@link Conventions}, also from another copy of the package.
 *
 * @category Plugins and pipeline
 */
export function isConventions(value: unknown): value is Conventions {
  return typeof value === 'object' && value !== null && (value as Conventions)[brand] === true;
}

/**
 * What every adapter does with its argument: a {@link Conventions} is used as it is, options are
 * compiled with {@link conventions}. Anything else (an adapter called without its `api`) is a
 * `TypeError` at creation, naming `where` (the adapter's function) when given.
 *
 * @category Plugins and pipeline
 */
export function toConventions(api: Conventions | ConventionsOptions, where?: string): Conventions {
  if (isConventions(api)) return api;
  if (typeof api !== 'object' || api === null) {
    throw new TypeError(
      `${where ?? 'The adapter'} needs \`api\`: the conventions() to serve, or their options.`,
    );
  }
  return new Conventions(api);
}

/**
 * Compiles the options once (routes, plugins, limits) and returns what every adapter runs.
 * Bad options throw a `TypeError` that says how to fix them.
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * ```
 *
 * @category Start here
 *
 * @see [The conventions, rule by rule](../../../docs/conventions.md) for what it answers, and
 *   [Adapters](../../../docs/adapters.md) to serve it on your host.
 */
export function conventions<const T extends Readonly<Record<string, object>> = RouteTable>(
  options: Omit<ConventionsOptions, 'routes'> & { routes?: TypedRoutes<T> } = {},
): Conventions {
  return new Conventions(options as ConventionsOptions);
}
