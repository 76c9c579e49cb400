/**
 * Hono's match for a request, read before it runs: the entries after the conventions' middleware
 * (`c.req.matchedRoutes`, in Hono's order), which the binding reads as routes with their guards'
 * settings and middleware the library cannot read.
 */
import type { MatchedEntry, MatchList } from '#core';
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

/** Hono's match list for a request, from its request wrapper. */
export function honoMatches(req: MatchedRequest): MatchList {
  return {
    entries: req.matchedRoutes,
    current: req.routeIndex,
    paramsAt(index) {
      const current = req.routeIndex;
      probing = true;
      req.routeIndex = index;
      try {
        return req.param?.();
      } finally {
        req.routeIndex = current;
        probing = false;
      }
    },
    // Hono sets `c.req.routeIndex` as it enters each entry.
    onEnter(then) {
      onAssign(req, 'routeIndex', (at) => {
        if (!probing && at !== undefined) then(at);
      });
    },
  };
}
