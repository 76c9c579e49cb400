/** Route settings on Nest controllers: the decorators' metadata, and how it is read back. */
import type { RouteConfig } from 'api-conventions';

/** The metadata key of a handler's (or a controller's) route settings. */
export const settingsKey = 'api-conventions:route';

/** Nest's own key of a route's Fastify `config` (@nestjs/platform-fastify's `@RouteConfig()`). */
export const fastifyConfigKey = '__fastify_route_config__';

interface Metadata {
  getMetadata?(key: string, target: object, property?: string): unknown;
  defineMetadata?(key: string, value: unknown, target: object): void;
}

/** reflect-metadata, which every Nest app loads first. */
const reflect = Reflect as unknown as Metadata;

/** The settings a handler (or the function Nest registered for it, which gets its metadata) carries. */
export function settingsOf(target: object): RouteConfig | undefined {
  return reflect.getMetadata?.(settingsKey, target) as RouteConfig | undefined;
}

/** Puts `config` on a handler, over a controller's settings, and where Fastify reads a route's. */
function put(target: object, config: RouteConfig): void {
  if (reflect.defineMetadata === undefined) {
    throw new TypeError(
      "The conventions' decorators need reflect-metadata: import 'reflect-metadata' first in the app's entry file, as every Nest app does.",
    );
  }
  reflect.defineMetadata(settingsKey, config, target);
  const fastify = reflect.getMetadata?.(fastifyConfigKey, target) as object | undefined;
  reflect.defineMetadata(fastifyConfigKey, { ...fastify, conventions: config }, target);
}

/**
 * A decorator that gives a handler, or every handler of a controller, route settings; a
 * handler's own settings go over its controller's.
 */
export function decorate(config: RouteConfig): ClassDecorator & MethodDecorator {
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor !== undefined && typeof descriptor.value === 'function') {
      put(descriptor.value, { ...settingsOf(descriptor.value), ...config });
      return;
    }
    if (key !== undefined || typeof target !== 'function') return;
    // Class decorators run after the handlers' own: each handler gets the controller's settings
    // under its own, since Nest copies a handler's metadata (not its controller's) to the route.
    const { prototype } = target as { prototype: object };
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler =
        name === 'constructor'
          ? undefined
          : Object.getOwnPropertyDescriptor(prototype, name)?.value;
      if (typeof handler === 'function') put(handler, { ...config, ...settingsOf(handler) });
    }
  }) as ClassDecorator & MethodDecorator;
}

/** Nest's metadata key of a handler's parameters, and the kind of `@Body()` among them. */
const routeArgsKey = '__routeArguments__';
const bodyKind = '3:';

/**
 * Gives every handler that takes `@Body()` the body formats Nest's own parsers read (JSON and
 * forms), unless its settings say how its body is read: a body of another type is then 415, not
 * an empty body for the pipes. Runs before Nest registers its routes, which copy each handler's
 * metadata.
 */
export function readBodies(controllers: Iterable<unknown>): void {
  for (const controller of controllers) {
    if (typeof controller !== 'function') continue;
    const { prototype } = controller as { prototype: object };
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value;
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const args = reflect.getMetadata?.(routeArgsKey, controller, name) as object | undefined;
      if (args === undefined || !Object.keys(args).some((key) => key.startsWith(bodyKind))) {
        continue;
      }
      const own = settingsOf(handler);
      if (own?.accepts === undefined && own?.body === undefined) {
        put(handler, { accepts: ['json', 'form'], ...own });
      }
    }
  }
}
