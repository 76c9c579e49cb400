/**
 * The library's own transform hooks: which plugins give the same response for the same handler
 * value and request, so that the serialize phase may send a text it wrote before.
 */
import type { Plugin } from './plugin.ts';

/**
 * The library's plugins whose `preSerialization` hook gives the same output for the same handler
 * value and request. A service whose response hooks are all among them may reuse its texts; one
 * hook from anywhere else (it may add something of its own to each response) turns reuse off.
 */
const ownTransforms = new WeakSet<object>();

/**
 * Marks one of the library's own plugins as transforming the same value the same way.
 *
 * @internal
 */
export function ownTransform<P extends Plugin>(plugin: P): P {
  ownTransforms.add(plugin);
  return plugin;
}

/**
 * Whether every `preSerialization` hook of these plugins is one of the library's own.
 *
 * @internal
 */
export function transformsAreOwn(plugins: readonly Plugin[]): boolean {
  return plugins.every((p) => p.preSerialization === undefined || ownTransforms.has(p));
}
