/**
 * `api-conventions/redis`: the shared-state store for services that run more than one instance.
 * One {@link RedisStore} holds rate counts, refresh-token families, authorization codes, revoked
 * token ids and one-time CSRF tokens, each call one atomic command or Lua script, on a single
 * Redis or a Redis Cluster, through any client (node-redis or ioredis) via {@link redisCommand}.
 * The [Redis](../docs/redis.md) guide sets it up.
 *
 * @module api-conventions/redis
 */
export {
  type RedisCommand,
  RedisStore,
  type RedisStoreOptions,
  redisCommand,
} from './stores/redis-store.ts';
