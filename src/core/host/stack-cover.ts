/**
 * Where the check points stand: every layer of a host's stack, and of the nested routers it holds,
 * gets one the first time the stack is seen and again when it grows. What stands at each place
 * (a route, a nested router, middleware) is read through the host's router probe.
 */
import type { StackProbe } from './stack-probe.ts';

const none: readonly never[] = [];

/**
 * What stands at a place of a stack, for the adapter to put its check point there: a route, a
 * nested router (whose stack is covered too), or middleware.
 *
 * @category Host binding
 */
export type Checkpoint<Layer, Route> =
  | {
      /** In front of one of the app's routes. */
      readonly kind: 'route';
      /** The route it checks. */
      readonly route: Route;
    }
  | {
      /** In front of a nested router: records where the request is, for the look ahead. */
      readonly kind: 'router';
      /** The nested router's stack. */
      readonly stack: Layer[];
    }
  | {
      /** In front of middleware that may answer. */
      readonly kind: 'middleware';
    };

/**
 * Puts check points on stacks as they are seen, and again on what was added to them since, nested
 * routers' included; `size` counts the layers seen, for the route view to know when to read again.
 */
export function coverage<Layer, Route>(
  probe: Pick<StackProbe<never, Layer, Route>, 'route' | 'router'>,
  place: (stack: Layer[], at: number, point: Checkpoint<Layer, Route>) => Layer | undefined,
): { cover(stack: Layer[]): void; size(stack: readonly Layer[]): number } {
  const covered = new WeakSet<object>();
  const lengths = new WeakMap<readonly Layer[], number>();
  const nestedOf = new WeakMap<readonly Layer[], Layer[][]>();

  const cover = (stack: Layer[]): void => {
    if (lengths.get(stack) !== stack.length) {
      lengths.set(stack, stack.length);
      for (let at = 0; at < stack.length; at++) {
        const layer = stack[at]!;
        if (covered.has(layer as object)) continue;
        covered.add(layer as object);
        const route = probe.route(layer);
        const nested = route === undefined ? probe.router(layer) : undefined;
        if (nested !== undefined) {
          const known = nestedOf.get(stack) ?? [];
          nestedOf.set(stack, known);
          if (!known.includes(nested)) known.push(nested);
        }
        const point: Checkpoint<Layer, Route> =
          route !== undefined
            ? { kind: 'route', route }
            : nested !== undefined
              ? { kind: 'router', stack: nested }
              : { kind: 'middleware' };
        const placed = place(stack, at, point);
        if (placed !== undefined) covered.add(placed as object);
      }
    }
    // Routers grow on their own: each one seen is looked at again.
    for (const nested of nestedOf.get(stack) ?? none) cover(nested);
  };

  const size = (stack: readonly Layer[]): number => {
    let n = stack.length;
    for (const nested of nestedOf.get(stack) ?? none) n += size(nested);
    return n;
  };
  return { cover, size };
}
