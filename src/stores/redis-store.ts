/** The Redis store: every Store method in one command or one Lua script, over any client. */
import { createHash } from 'node:crypto';
import {
  assertKnownKeys,
  type Counter,
  type HitWindow,
  type RateCheck,
  type RateVerdict,
  type Store,
  slidingKeys,
} from '#core';
import { fixedWindowScript, hitScript, limitScript } from './redis-scripts.ts';

/**
 * Sends one Redis command and answers with its reply: `args` are the command and its arguments,
 * `key` the first key it touches (a Cluster client routes by it; `undefined` for none).
 * {@link redisCommand} makes one from a node-redis or an ioredis client, a cluster included.
 *
 * @category Stores
 */
export type RedisCommand = (args: string[], key: string | undefined) => Promise<unknown>;

/**
 * Options of {@link RedisStore}.
 *
 * @category Stores
 */
export interface RedisStoreOptions {
  /** How commands reach Redis: `redisCommand(client)`, or a function of your own. */
  command: RedisCommand;
}

/** The smallest part of a node-redis client this module uses. */
interface NodeRedisLike {
  sendCommand(...args: unknown[]): Promise<unknown>;
  masters?: unknown;
}

/** The smallest part of an ioredis client (or Cluster) this module uses. */
interface IoRedisLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * The {@link RedisCommand} of a client: node-redis (`createClient`, `createCluster`) or ioredis
 * (`new Redis`, `new Redis.Cluster`). The client stays yours: connect it before use, close it
 * after.
 *
 * @example
 * ```ts
 * import { RedisStore, redisCommand } from 'api-conventions/redis';
 * import { createClient } from 'redis';
 *
 * const client = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const store = new RedisStore({ command: redisCommand(client) });
 * ```
 *
 * @category Stores
 */
export function redisCommand(client: unknown): RedisCommand {
  if (isPromiseLike(client)) throw handedAPromise('redisCommand: the client');
  const io = client as Partial<IoRedisLike> | undefined;
  if (typeof io?.call === 'function') {
    const call = io.call.bind(client);
    return (args) => call(args[0]!, ...args.slice(1));
  }
  const node = client as Partial<NodeRedisLike> | undefined;
  if (typeof node?.sendCommand === 'function') {
    const send = node.sendCommand.bind(client);
    // A node-redis cluster routes by the first key it is told: sendCommand(key, readonly, args).
    if (node.masters !== undefined) return (args, key) => send(key, false, args);
    return (args) => send(args);
  }
  throw new TypeError(
    'redisCommand: pass a node-redis client or cluster (createClient, createCluster) or an ' +
      'ioredis client or Cluster; for another client, write a RedisCommand function.',
  );
}

/** Whether `value` is a promise (or any thenable) rather than what it will resolve to. */
function isPromiseLike(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * The `TypeError` of a promise handed where the client was meant: `connect()` resolves with the
 * client, so `redisCommand(createClient().connect())` lacks an `await`.
 */
function handedAPromise(where: string): TypeError {
  return new TypeError(
    `${where} is a promise, not a connected client: an \`await\` is missing. Write ` +
      'redisCommand(await createClient({ url }).connect()), or await client.connect() first ' +
      'and pass the client.',
  );
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** A script sent by its SHA1 (EVALSHA), and whole (EVAL) when the server does not know it yet. */
class Script {
  private readonly sha: string;
  constructor(private readonly source: string) {
    this.sha = sha1(source);
  }
  async run(command: RedisCommand, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await command(['EVALSHA', this.sha, ...tail], keys[0]);
    } catch (error) {
      // Each server (each Cluster node) learns the script on its first EVAL.
      if (!String((error as Error)?.message ?? error).startsWith('NOSCRIPT')) throw error;
      return command(['EVAL', this.source, ...tail], keys[0]);
    }
  }
}

const hit = new Script(hitScript);
const limit = new Script(limitScript);
const fixedWindow = new Script(fixedWindowScript);
const codes = { 'fixed-window': 'f', 'sliding-window': 's', gcra: 'g' } as const;

/** The verdict a limit script answers from `at` on: allowed (1/0), remaining, reset, wait. */
function verdictAt(reply: readonly unknown[], at: number): RateVerdict {
  return {
    allowed: Number(reply[at]) === 1,
    remaining: Number(reply[at + 1]),
    resetAt: Number(reply[at + 2]),
    retryAfterMs: Number(reply[at + 3]),
  };
}

/** A whole number of milliseconds for PX: at least 1. */
const px = (ms: number) => String(Math.max(1, Math.ceil(ms)));

/**
 * A {@link Store} in Redis, shared by every instance of a service: rate limits, refresh-token
 * families, authorization codes, revoked token ids and one-time CSRF tokens all live here when
 * it is given to each feature. Every method is one command or one Lua script, so it is atomic
 * on one server and on a Redis Cluster, as long as the keys of one call share a hash tag
 * (`rl:{ip:192.0.2.1}:hourly`, as the rate limiter writes them).
 *
 * Needs Redis 6.2 or later (`GETDEL`). Any client works through a {@link RedisCommand}.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisStore, redisCommand } from 'api-conventions/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = new RedisStore({ command: redisCommand(client) });
 * await store.ping(); // a clear error at start-up when Redis is unreachable
 * ```
 *
 * @category Stores
 *
 * @see [Redis](../../docs/redis.md): set-up, Cluster and what happens when Redis fails.
 */
export class RedisStore implements Store {
  private readonly command: RedisCommand;

  constructor(options: RedisStoreOptions) {
    assertKnownKeys('RedisStore', options, ['command']);
    if (isPromiseLike(options?.command)) throw handedAPromise('RedisStore: command');
    if (typeof options?.command !== 'function') {
      throw new TypeError(
        'RedisStore: command must be a function; pass { command: redisCommand(client) }.',
      );
    }
    this.command = options.command;
  }

  /**
   * Asks Redis for a `PONG` within `timeoutMs`; rejects with an error that says Redis is
   * unreachable and why. Call it at start-up, so that a service asked to use Redis does not
   * start without it.
   */
  async ping(timeoutMs = 2000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer to PING within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      const answer = await Promise.race([this.command(['PING'], undefined), late]);
      if (answer !== 'PONG') throw new Error(`PING answered ${JSON.stringify(answer)}`);
    } catch (error) {
      throw new Error(
        `Redis is unreachable: ${(error as Error)?.message ?? String(error)}. Start Redis, or ` +
          'check the URL the service was given.',
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.command(['GET', key], key);
    return value === null || value === undefined ? undefined : String(value);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    const args = ['SET', key, value];
    if (ttlMs !== undefined) args.push('PX', px(ttlMs));
    await this.command(args, key);
  }

  async delete(key: string): Promise<boolean> {
    return Number(await this.command(['DEL', key], key)) === 1;
  }

  async hit(windows: readonly HitWindow[], by = 1): Promise<Counter[]> {
    if (windows.length === 0) return [];
    const now = Date.now();
    const keys = windows.map((w) => w.key);
    const reply = (await hit.run(this.command, keys, [
      String(by),
      ...windows.map((w) => px(w.ttlMs)),
    ])) as unknown[];
    return windows.map((_, i) => {
      const ttl = Number(reply[2 * i + 1]);
      return {
        value: Number(reply[2 * i]),
        expiresAt: ttl < 0 ? Number.POSITIVE_INFINITY : now + ttl,
      };
    });
  }

  async take(key: string): Promise<string | undefined> {
    const value = await this.command(['GETDEL', key], key);
    return value === null || value === undefined ? undefined : String(value);
  }

  async add(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.command(['SET', key, value, 'NX', 'PX', px(ttlMs)], key)) !== null;
  }

  async limit(checks: readonly RateCheck[], now: number): Promise<RateVerdict[]> {
    if (checks.length === 0) return [];
    const only = checks[0]!;
    if (checks.length === 1 && only.algorithm === 'fixed-window') {
      // One fixed window, the common case: a script of a few commands, nothing to loop over.
      const reply = (await fixedWindow.run(
        this.command,
        [only.key],
        [String(now), String(only.limit), String(only.windowMs), String(only.cost)],
      )) as unknown[];
      return [verdictAt(reply, 0)];
    }
    const keys: string[] = [];
    const args = [String(now), String(checks.length)];
    for (const c of checks) {
      if (c.algorithm === 'sliding-window') keys.push(...slidingKeys(c.key, now, c.windowMs));
      else keys.push(c.key);
      args.push(codes[c.algorithm], String(c.limit), String(c.windowMs), String(c.cost));
    }
    const reply = (await limit.run(this.command, keys, args)) as unknown[];
    return checks.map((_, i) => verdictAt(reply, 4 * i));
  }
}
