/**
 * What Hono will run for a request, read from Hono's own match before it runs: the entries after
 * the conventions' middleware (`c.req.matchedRoutes`, in Hono's order), which the binding reads
 * as routes with their guards' settings and middleware the library cannot read.
 */
import type { HostMatch, MatchedEntries, MatchedEntry } from 'api-conventions/host';
import { onAssign } from './_on-assign.ts';

/** What the middleware reads of a Hono request. */
export interface MatchedRequest {
  /** Hono's match for the request, in the order it runs the entries. */
  readonly matchedRoutes?: readonly MatchedEntry[];
  /** The index of the entry that runs now. */
  routeIndex?: number;
  /** The decoded path parameters of the entry at `routeIndex`. */
  param?(): Record<string, string>;
}

// Set while the parameters of an entry ahead are read: Hono has not entered that entry.
let probing = false;

/** The parameters Hono decoded for the entry at `index`, read without entering it. */
function paramsAt(req: MatchedRequest, index: number) {
  const current = req.routeIndex;
  probing = true;
  req.routeIndex = index;
  try {
    return req.param?.();
  } finally {
    req.routeIndex = current;
    probing = false;
  }
}

/** What Hono will run for `request` (its `method`) after the entry at its `routeIndex`. */
export function honoMatch(
  entries: MatchedEntries<Request>,
  request: Request,
  req: MatchedRequest,
  method: string,
): HostMatch {
  const routes = req.matchedRoutes;
  const index = req.routeIndex;
  // Without Hono's match the library cannot know what runs: fail closed.
  if (!Array.isArray(routes) || typeof index !== 'number') return { routes: [], others: true };
  const ahead = entries.ahead(request, routes, index + 1, method);
  const params = ahead.firstRoute === -1 ? undefined : paramsAt(req, ahead.firstRoute);
  // Hono sets `c.req.routeIndex` as it enters each entry: each is checked as it is reached.
  if (ahead.eachEntry) {
    onAssign(req, 'routeIndex', (at) => {
      if (!probing && at !== undefined) ahead.enter(at);
    });
  }
  return { routes: ahead.routes, params, others: ahead.others, checksEach: true };
}
