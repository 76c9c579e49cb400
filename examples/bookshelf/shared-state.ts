/** The bookshelf's shared state: a Redis store when `REDIS_URL` is set, with a clear error when Redis is unreachable. */
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { createClient, createCluster } from 'redis';

/** A connected Redis store and how to let go of it. */
export interface SharedState {
  /** The store every feature of the bookshelf shares. */
  store: RedisStore;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * Connects to the Redis at `url` (`redis://host:port`; `redis+cluster://host:port` for a
 * Redis Cluster, any node as the seed) and checks it answers within `timeoutMs`; rejects with an
 * error that says Redis is unreachable otherwise, so the service does not start without it.
 */
export async function connectSharedState(url: string, timeoutMs = 3000): Promise<SharedState> {
  const cluster = url.startsWith('redis+cluster://');
  const client = cluster
    ? createCluster({
        rootNodes: [{ url: url.replace('redis+cluster://', 'redis://') }],
        defaults: { socket: { connectTimeout: timeoutMs, reconnectStrategy: retry } },
      })
    : createClient({ url, socket: { connectTimeout: timeoutMs, reconnectStrategy: retry } });
  // Connection errors are reported by the store's calls (a 503) and by the start-up check.
  client.on('error', () => {});
  const close = async () => {
    await (client as { destroy?: () => unknown }).destroy?.();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no connection within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
    const store = new RedisStore({ command: redisCommand(client) });
    await store.ping(timeoutMs);
    return { store, close };
  } catch (error) {
    await close().catch(() => {});
    const reason = (error as Error)?.message ?? String(error);
    throw new Error(
      `REDIS_URL=${url}: ${reason.startsWith('Redis is unreachable') ? reason : `Redis is unreachable: ${reason}`}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/** Reconnects every 100 ms at first, then every second at most: Redis coming back is noticed soon. */
function retry(attempt: number): number {
  return Math.min(100 * (attempt + 1), 1000);
}
