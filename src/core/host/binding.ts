/**
 * What an adapter supplies to bind its host (`bindHost`): how to read the host's request,
 * what its router will run, where the app's own routes come from; checked once, at start-up.
 */

import type { RequestContext, RequestInput } from '../kernel/context.ts';
import type { AppRoute } from '../kernel/route-types.ts';
import type { HostMatch } from '../pipeline/fail-closed.ts';

/**
 * Where an app's own routes come from, read on demand: `size` is compared on every request (a
 * cheap length), and `list` read again when it changed.
 *
 * @category Host binding
 */
export interface AppRouteSource<Native> {
  /** A number that changes whenever routes are added (the length of the host's route list). */
  size(native: Native): number;
  /** The app's routes, in the table's pattern syntax. */
  list(native: Native): readonly AppRoute[];
}

/**
 * What an adapter knows of its host: how to read a request, and, on a host with a router of its
 * own, what that router will run. The rest is the same on every host.
 *
 * @category Host binding
 */
export interface HostBinding<Native> {
  /** The core's input for a native request (its body readers where the core reads the body). */
  input(native: Native): RequestInput;
  /**
   * What the host's own router will run for the request ({@link HostMatch}), read from the host
   * after the pre-routing hooks and path rules; `undefined` where the library answers the request
   * itself (a table route on a host that lets the library route them). Absent on hosts without a
   * router (node:http, a bare `fetch` handler): the library's match is then the dispatch.
   */
  match?(native: Native, ctx: RequestContext): HostMatch | undefined;
  /**
   * Whether the adapter puts a check point (`BoundHost.check`) in front of everything of the
   * app that may answer, so that each is checked as the host enters it: `enter` then runs no
   * route's checks (Express, whose router decides as it goes, under wrappers, rewrites and
   * `next()`). @default false
   */
  checkpoints?: boolean | undefined;
  /** The app's own routes, for the route view (`Allow`, 405, OPTIONS, preflights). */
  appRoutes?: AppRouteSource<Native> | undefined;
}

/**
 * The binding as given, once its members are known to be what the steps call: a mistake (a
 * value where a function belongs) is a `TypeError` at start-up, not at the first request.
 */
export function checkBinding<Native>(binding: HostBinding<Native>): HostBinding<Native> {
  if (typeof binding?.input !== 'function') {
    throw new TypeError(
      "bindHost(api, binding): binding.input must be a function that turns the host's request into a RequestInput.",
    );
  }
  const source = binding.appRoutes;
  if (source !== undefined) {
    for (const name of ['size', 'list'] as const) {
      if (typeof source?.[name] === 'function') continue;
      throw new TypeError(
        `bindHost(api, binding): binding.appRoutes.${name} must be a function of the host's request, not a ${source === null ? 'null' : typeof source?.[name]} value: give appRoutes as { size: (native) => routes.length, list: (native) => routes }, which the binding calls again when size changes.`,
      );
    }
  }
  return binding;
}
