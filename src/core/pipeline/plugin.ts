/** The seams features plug into: checks before the handler, shaping after it. */
import type { Reply } from '../http/reply.ts';
import type { ApiResponse, OutgoingResponse, ResponseHeaders } from '../http/response.ts';
import type { RouteConfig, RouteInfo } from '../routing/types.ts';
import type { RequestContext } from './context.ts';

/**
 * What a check may return: nothing to go on (a hook with no `return` is fine), or a reply that
 * answers the request at once.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing returns void
export type CheckResult = undefined | void | Reply;

/**
 * What {@link Conventions.guard} gives a host whose own handler answers: the response that stops
 * the request, or the checked body and the headers the checks added.
 */
export type Guarded = GuardStopped | GuardPassed;

/** The request stops: send `response` and do not run the handler. */
export interface GuardStopped {
  /** The error, or a check's early reply, ready to send. */
  response: ApiResponse;
}

/** The request goes on to the host's handler. */
export interface GuardPassed {
  /** Always `undefined`: nothing to send yet. */
  response: undefined;
  /** The body, parsed and checked against the route's `body` rules. */
  body: unknown;
  /** Headers the checks added, for the host to put on its response. */
  headers: ResponseHeaders;
}

/**
 * A feature that takes part in every request. Each hook may be async, may throw an
 * {@link ApiError} to stop the request with that error, and a check may return a {@link Reply}
 * to answer early. Hooks that return no promise cost no asynchronous hop.
 */
export interface Plugin {
  /** A name for error messages and ordering. */
  readonly name: string;
  /**
   * The keys of {@link RouteConfig} this plugin reads, so that a misspelt route setting is a
   * `TypeError` at start-up rather than a setting silently ignored.
   */
  readonly routeConfig?: readonly string[];
  /** Called once per route at start-up, so per-route settings are compiled before any request. */
  onRoute?(route: RouteInfo): void;
  /**
   * Runs after routing and before the body is read: identity, limits, access checks. May
   * consult a store.
   */
  onRequest?(ctx: RequestContext): CheckResult | Promise<CheckResult>;
  /** Runs after the body is parsed and checked, just before the handler (e.g. CSRF in a form). */
  beforeHandle?(ctx: RequestContext): CheckResult | Promise<CheckResult>;
  /**
   * Runs on every response, errors included, before serialization: may add headers or reshape the
   * body. `ctx.route` is undefined when no route matched.
   */
  onResponse?(ctx: RequestContext, response: OutgoingResponse): void | Promise<void>;
}
