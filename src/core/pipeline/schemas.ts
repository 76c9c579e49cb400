/**
 * The Standard Schema steps of a request: a route's `params`, `query` and `headers` checked
 * before its body is read, and, in development, the handler's value checked against `response`.
 */

import { withinBudget } from '../kernel/check-budget.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { isPromise, type Step } from '../kernel/steps.ts';
import { issuePath, queryObject, type RequestPart } from '../validation/standard-schema.ts';

/** A compiled check of one part: its output, or a thrown 400. */
export type PartCheck = (value: unknown) => Step<unknown>;

/** The values each part's schema is given: params and headers as plain objects, the query too. */
function partInput(ctx: RequestContext, part: RequestPart): unknown {
  if (part === 'params') return { ...ctx.params };
  if (part === 'query') return queryObject(ctx.query);
  // Hosts hand headers over as a reader, not a list: the schema reads the names it declares
  // (lower-case), each once, and sees no others.
  const { headers } = ctx;
  return new Proxy(Object.create(null) as Record<string, string | undefined>, {
    get: (_target, name) =>
      typeof name === 'string' ? (headers.get(name.toLowerCase()) ?? undefined) : undefined,
    has: (_target, name) => typeof name === 'string' && headers.get(name.toLowerCase()) != null,
  });
}

/**
 * Checks the `params`, `query` and `headers` schemas in turn, keeping each output; one that
 * does not settle within `budget` milliseconds is 503 (src/core/kernel/check-budget.ts).
 */
export function checkParts(
  ctx: RequestContext,
  parts: readonly [RequestPart, PartCheck][],
  from: number,
  budget: number,
): Step<void> {
  for (let i = from; i < parts.length; i++) {
    const [part, check] = parts[i]!;
    const out = withinBudget(check(partInput(ctx, part)), budget, () => `The ${part} schema`);
    if (isPromise(out)) {
      return out.then((value) => {
        ctx.setValid(part, value);
        return checkParts(ctx, parts, i + 1, budget);
      });
    }
    ctx.setValid(part, out);
  }
}

const responseWarned = new WeakMap<RouteSettings, Set<number>>();

/**
 * Development only: checks a response's value, after the transform phase (the envelope, the
 * selected fields, the links; `Date`s not yet written), against the route's `response` schema
 * for its status and logs the first issue once per route and status. It never changes the answer.
 */
export function checkResponse(
  logger: { warn(message: string): void },
  ctx: RequestContext,
  status: number,
  body: unknown,
): void {
  const route = ctx.route;
  const schema = route?.config.response?.[status];
  if (route === undefined || schema === undefined) return;
  const warn = (issues: readonly { message: string; path?: readonly unknown[] | undefined }[]) => {
    let seen = responseWarned.get(route);
    if (seen === undefined) {
      seen = new Set();
      responseWarned.set(route, seen);
    }
    if (seen.has(status)) return;
    seen.add(status);
    const first = issues[0]!;
    const path = issuePath(first.path as never);
    logger.warn(
      `${route.method} ${route.pattern} answered ${status} with a body that does not fit its response schema (${issues.length} issue${issues.length === 1 ? '' : 's'}; first: ${path === '' ? '' : `"${path}": `}${first.message}). The answer was sent as it was; fix the handler or the schema.`,
    );
  };
  try {
    const result = schema['~standard'].validate(body);
    if (isPromise(result)) {
      result.then(
        (r) => r.issues && warn(r.issues),
        () => {},
      );
    } else if (result.issues) warn(result.issues);
  } catch {
    // A schema that throws is the schema's problem; the answer goes out regardless.
  }
}
