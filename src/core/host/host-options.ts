/**
 * The options an adapter takes from its host (readers of what only the host knows): checked the
 * same way on every host, and what is missing named once, with one wording.
 */

import { assertKnownKeys } from '../internal/options.ts';
import type { Conventions } from '../pipeline/conventions.ts';

/**
 * Throws a `TypeError` at start-up for an option of `options` that is not among `names` (with the
 * closest name as a suggestion), or that is given and not a function.
 *
 * @category Host binding
 */
export function assertHostFunctions(
  where: string,
  options: object | undefined,
  names: readonly string[],
): void {
  assertKnownKeys(where, options, names);
  for (const name of names) {
    const value = (options as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined && typeof value !== 'function') {
      throw new TypeError(`${where}: \`${name}\` must be a function.`);
    }
  }
}

const warned = new WeakSet<Conventions>();

/**
 * A rate limit with no client address counts every anonymous caller as one: said once per
 * service, where the host was given no way to read the address (`where`), with how to give it
 * on that host (`how`).
 *
 * @category Host binding
 */
export function warnWithoutAddress(api: Conventions, where: string, how: string): void {
  if (!api.plugins.includes('rate-limit') || warned.has(api)) return;
  warned.add(api);
  api.logger.warn(
    `${where} has no remoteAddress option: the rate limit cannot tell anonymous callers apart, and counts them all as one. ${how}`,
  );
}
