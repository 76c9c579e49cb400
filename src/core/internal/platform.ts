/**
 * What the runtime offers beyond the web platform, found without importing `node:*` so that the
 * core stays neutral (CONTRIBUTING.md rule 1), and whether it runs in production.
 */

/** The part of `node:crypto` the core uses: synchronous HMAC and one-shot hashes. */
export interface NodeCrypto {
  /** `crypto.createHmac`: a MAC object whose `digest()` gives the bytes (a Buffer is a Uint8Array). */
  createHmac(
    algorithm: string,
    key: Uint8Array,
  ): { update(data: Uint8Array): { digest(): Uint8Array } };
  /** `crypto.hash` (Node 20.12 and later): a one-shot digest; absent on older runtimes. */
  hash?: (algorithm: string, data: string | Uint8Array, encoding: 'base64url') => string;
}

/**
 * Node's `crypto` module where the runtime has one (Node, Bun, Deno through
 * `process.getBuiltinModule`), else `undefined`: the synchronous primitives of the platform,
 * several times faster than the same work in JavaScript.
 */
export const nodeCrypto: NodeCrypto | undefined = (() => {
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
      .process;
    const found = runtime?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
    return typeof found?.createHmac === 'function' ? (found as NodeCrypto) : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * `NODE_ENV`, or `undefined` when it is unset or the environment cannot be read (no `process`,
 * a browser, Deno without `--allow-env`, whose `process.env` getter throws). Never throws.
 */
export function nodeEnv(): string | undefined {
  try {
    const runtime: unknown = (globalThis as { process?: unknown }).process;
    if (typeof runtime !== 'object' || runtime === null) return undefined;
    const env: unknown = (runtime as { env?: unknown }).env;
    if (typeof env !== 'object' || env === null) return undefined;
    const value: unknown = (env as { NODE_ENV?: unknown }).NODE_ENV;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `NODE_ENV` is `production`; `false` where it cannot be read (see {@link nodeEnv}). */
export function isProduction(): boolean {
  return nodeEnv() === 'production';
}

/**
 * Whether the runtime compiles code from strings: Node, Bun and Deno do; Cloudflare Workers and
 * Node under `--disallow-code-generation-from-strings` do not. Where it does, a few per-route
 * functions are generated from names the service declared (never from a request); elsewhere
 * closures do the same work, more slowly.
 */
export const compilesCode: boolean = (() => {
  try {
    return new Function('return true')() === true;
  } catch {
    return false;
  }
})();

/**
 * A function compiled from `body` with `params`, called with `args`; `undefined` where the
 * runtime refuses to compile code, at start-up or later (workerd allows it while a Worker's
 * global scope runs and refuses it while a request is served).
 */
export function compiled<T>(
  params: readonly string[],
  body: string,
  args: readonly unknown[],
): T | undefined {
  if (!compilesCode) return undefined;
  try {
    return new Function(...params, body)(...args) as T;
  } catch {
    return undefined;
  }
}
