/**
 * The look ahead of the check points (CONTRIBUTING.md, "Fail closed, where the host enters"):
 * middleware the library cannot read lets a caller without credentials through only on the way to
 * an open route ahead of it, in its own stack or in those of the routers the request is in. What
 * lies ahead is read from the host's stacks through its router probe, the same for every host.
 */
import type { RouteSettings } from '../kernel/route-types.ts';
import type { BoundHost } from './bind-host.ts';
import { readMarks, type StackProbe, takes } from './stack-probe.ts';

/** A router a request is inside: its layer in the stack it belongs to, and the base of its routes. */
interface Frame<Layer> {
  readonly stack: readonly Layer[];
  readonly layer: Layer;
  readonly base: string;
}

const none: readonly never[] = [];

/**
 * The settings of the host's routes, by method: a route's table route, its guard's settings, or
 * the defaults, kept by the binding's settings memo and read again when handlers are added.
 */
export class RouteReader<Native extends object, Layer, Route> {
  // A route's methods, read again when handlers are added (a method comes with its handlers).
  private readonly methodsOf = new WeakMap<
    object,
    { version: number; methods: readonly string[] }
  >();

  constructor(
    private readonly host: BoundHost<Native>,
    private readonly probe: StackProbe<Native, Layer, Route>,
  ) {}

  /** The methods a route declares now. */
  methods(route: Route): readonly string[] {
    const version = this.probe.handlers(route).length;
    let known = this.methodsOf.get(route as object);
    if (known?.version !== version) {
      known = { version, methods: this.probe.methods(route) };
      this.methodsOf.set(route as object, known);
    }
    return known.methods;
  }

  /** A route's settings for `method` (HEAD is GET's where the route declares no HEAD). */
  settingsOf(route: Route, method: string): RouteSettings {
    const name = method === 'HEAD' && !this.methods(route).includes('HEAD') ? 'GET' : method;
    const handlers = this.probe.handlers(route);
    const read = () => readMarks(handlers, name);
    const pattern = String(this.probe.pattern(route));
    return this.host.settingsFor(route as object, name, pattern, read, handlers.length);
  }
}

/** Where each request is among the host's nested routers, and what lies ahead of it there. */
export class LookAhead<Native extends object, Layer, Route> {
  private readonly trails = new WeakMap<Native, Frame<Layer>[]>();

  constructor(
    private readonly host: BoundHost<Native>,
    private readonly probe: StackProbe<Native, Layer, Route>,
    private readonly routes: RouteReader<Native, Layer, Route>,
  ) {}

  /**
   * Whether an open route lies ahead of `self` in `stack` (`undefined`: all of it), or ahead of
   * the routers the request is in, in their own stacks.
   */
  opensAhead(native: Native, stack: readonly Layer[], self: Layer | undefined): boolean {
    const path = this.probe.path(native);
    const method = this.probe.method(native);
    const trail = this.trails.get(native) ?? none;
    let base = trail.at(-1)?.base ?? '';
    const from = self === undefined ? 0 : stack.indexOf(self) + 1;
    if (this.openIn(stack, from, path.slice(base.length) || '/', method)) return true;
    for (let i = trail.length - 1; i >= 0; i--) {
      const frame = trail[i]!;
      base = trail[i - 1]?.base ?? '';
      const at = frame.stack.indexOf(frame.layer) + 1;
      if (this.openIn(frame.stack, at, path.slice(base.length) || '/', method)) return true;
    }
    return false;
  }

  /** The request enters the router at `layer` in `stack`: call what it gives when it leaves. */
  into(native: Native, stack: readonly Layer[], layer: Layer, base: string): () => void {
    let trail = this.trails.get(native);
    if (trail === undefined) {
      trail = [];
      this.trails.set(native, trail);
    }
    const frame: Frame<Layer> = { stack, layer, base };
    trail.push(frame);
    return () => {
      const at = trail.lastIndexOf(frame);
      if (at !== -1) trail.length = at;
    };
  }

  /** Whether a route of `stack` from `from` on that matches `path` lets a caller in without credentials. */
  private openIn(stack: readonly Layer[], from: number, path: string, method: string): boolean {
    const { probe } = this;
    for (let i = from; i < stack.length; i++) {
      const layer = stack[i]!;
      const route = probe.route(layer);
      const nested = route === undefined ? probe.router(layer) : undefined;
      if (route === undefined ? nested === undefined : !takes(this.routes.methods(route), method)) {
        continue;
      }
      let matched: string | undefined;
      try {
        matched = probe.match(layer, path);
      } catch {
        continue; // a parameter the host cannot decode: that layer never matches this path
      }
      if (matched === undefined) continue;
      if (route !== undefined) {
        if (this.host.opens(this.routes.settingsOf(route, method))) return true;
        continue;
      }
      const rest = path.slice(matched.length);
      if ((rest === '' || rest[0] === '/') && this.openIn(nested!, 0, rest || '/', method)) {
        return true;
      }
    }
    return false;
  }
}
