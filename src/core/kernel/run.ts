/**
 * The run of one request: how far it got and what the pipeline keeps of it on the way. Its owner
 * is the host binding (src/core/host), which opens it with the request's context and moves it on;
 * plugins and handlers never see it, only the request context.
 */

import type { RequestInput } from './input.ts';
import type { LogPlan } from './request-logger.ts';
import type { RouteSettings } from './route-types.ts';

/**
 * The phases of a run, in order: opened (the context made and matched against the route view),
 * pre-routed (the `onRequest` hooks ran), checked (a route's authentication and `preParsing`
 * ran), answered (the plugins that observe requests heard its final status). A run only moves
 * forward.
 */
export const Phase = { opened: 0, preRouted: 1, checked: 2, answered: 3 } as const;

/** One of the {@link Phase} values. */
export type Phase = (typeof Phase)[keyof typeof Phase];

const noTests: readonly never[] = [];

/**
 * The name of one response's text: a strong tag made from the route's `resourceVersion`, and the
 * rest of the request the text depends on, in full (a tag's hashes tell versions apart, not
 * callers).
 */
export interface Representation {
  /** The tag and the path: where a kept text is looked up. */
  readonly key: string;
  /** Everything else the text depends on, each compared in full before a kept text is sent. */
  readonly details: readonly string[];
}

/** What the pipeline keeps of one request's run (`Context`: the request context's type). */
export class Run<Context> {
  /** How far the run got. */
  phase: Phase = Phase.opened;
  /** The adapter's input: the body readers, or the body the host framework parsed. */
  readonly input: RequestInput;
  /** Why the target cannot be routed (malformed percent-encoding, a refused head), if it cannot. */
  problem: unknown = undefined;
  /** Whether the path has an upper-case letter (spec 4.1.3), found once. */
  upperCase = false;
  /** The route the library's own router (the route view) matched, if any. */
  viewed: RouteSettings | undefined = undefined;
  /**
   * Whether one of the app's routes will serve the request, as the host's own match says;
   * `undefined` where the library routes (or the host decides as it goes), and the context's
   * route says.
   */
  routed: boolean | undefined = undefined;
  /** The route whose checks (authentication, `preParsing`) ran, so that each runs them once. */
  checked: RouteSettings | undefined = undefined;
  /** The identity plugins' `credentials` tests, for `ctx.hasCredentials`. */
  credentialTests: readonly ((ctx: Context) => boolean)[] = noTests;
  /** How the request logs (the service's logger and the plugins' fields). */
  logs: LogPlan<Context> | undefined = undefined;
  /** The `Content-Length` of the body left out of a HEAD answer to an app's value (GET's length). */
  headLength: string | undefined = undefined;
  /**
   * What names the text of this response, where the `caching` plugin knows it. The serialize
   * phase sends the JSON text it wrote under the same name again, for the same handler value.
   */
  representation: Representation | undefined = undefined;

  constructor(input: RequestInput) {
    this.input = input;
  }

  /** Moves the run on to `phase`; a run never goes back. */
  reach(phase: Phase): void {
    if (phase > this.phase) this.phase = phase;
  }

  /** Whether the run reached `phase`. */
  reached(phase: Phase): boolean {
    return this.phase >= phase;
  }
}
