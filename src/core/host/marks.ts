/**
 * Marks on the conventions' own steps in a host's handler lists (a guard with its route settings,
 * the handler of a table route, the library's own middleware), readable through the wrappers APM
 * agents put around every handler, so that what is public stays public under them and nothing
 * else is taken for the library's.
 */
import type { RouteInfo } from '../kernel/route-table.ts';
import type { RouteConfig } from '../kernel/route-types.ts';

/**
 * What one of the conventions' own steps says of itself: the library's own step (`before`,
 * `after`, a catch-all handler), a guard's route settings, or a table route's handler's route.
 *
 * @category Host binding
 */
export interface StepMark {
  /** One of the library's own steps, which runs its own checks. */
  readonly own?: true;
  /** A guard: the settings of the route it stands on. */
  readonly guard?: RouteConfig;
  /** The handler of a table route. */
  readonly table?: RouteInfo;
}

// Two marks, so that one survives each kind of wrapper: an enumerable property with a string key
// (OpenTelemetry's Express instrumentation proxies those, Elastic's APM agent copies them) and
// the function's name (New Relic's keeps only name and arity). A symbol or the function's identity
// is lost under both. The names are kept where every copy of the package finds them.
const markKey = 'api-conventions:step';
const registry = Symbol.for('api-conventions.step-marks');
const shared = globalThis as Record<symbol, Map<string, StepMark> | undefined>;
shared[registry] ??= new Map();
const byName = shared[registry];

// Where wrappers keep what they wrap: shimmer's `__original` (OpenTelemetry's, the check points'
// own), Hono's handler of a sub-app with an error handler of its own.
const inner = ['__original', '__COMPOSED_HANDLER'] as const;

/**
 * Marks one of the conventions' own steps (a function), and gives it back.
 *
 * @category Host binding
 */
export function markStep<F extends object>(step: F, what: StepMark): F {
  const name = `api-conventions step #${byName.size + 1}`;
  byName.set(name, what);
  Object.defineProperty(step, markKey, { value: what, enumerable: true });
  Object.defineProperty(step, 'name', { value: name });
  return step;
}

/** The function a wrapper keeps, if it says which. */
function unwrap(fn: Record<string, unknown>): unknown {
  for (const key of inner) if (typeof fn[key] === 'function') return fn[key];
  return undefined;
}

/**
 * The mark of a step, read through wrappers that proxy or copy its properties, keep its name, or
 * keep it as `__original`; `undefined` for the app's own code, or where a wrapper hides the mark
 * (then the step is checked as the app's own code: a public route asks for credentials, never the
 * reverse).
 *
 * @category Host binding
 */
export function markOf(fn: unknown): StepMark | undefined {
  let f = fn;
  for (let depth = 0; depth < 8 && typeof f === 'function'; depth++) {
    const step = f as unknown as Record<string, unknown>;
    const found = (step[markKey] as StepMark | undefined) ?? byName.get(step.name as string);
    if (found !== undefined) return found;
    f = unwrap(step);
  }
  return undefined;
}

/**
 * The innermost function under wrappers that keep what they wrap (shimmer's `__original`), for
 * reading what a handler is (its arity, its name, a Router's stack).
 *
 * @category Host binding
 */
export function originalOf(fn: unknown): (...args: never[]) => unknown {
  let f = fn as Record<string, unknown>;
  for (let depth = 0; depth < 8; depth++) {
    const next = unwrap(f);
    if (next === undefined) break;
    f = next as Record<string, unknown>;
  }
  return f as unknown as (...args: never[]) => unknown;
}
