/**
 * Options both BullMQ (`connection`) and ioredis (`new Redis(options)`) accept. A type alias,
 * not an interface: BullMQ's options type has an index signature, which only an alias meets.
 */
export type RedisConnectionOptions = {
  host: string;
  port: number;
  password?: string;
  username?: string;
  db?: number;
  maxRetriesPerRequest: number | null;
  enableOfflineQueue?: boolean;
};

/**
 * How a process talks to Redis for BullMQ (queues and workers) and ioredis clients, from
 * `REDIS_URL`. A worker waits for Redis forever (`maxRetriesPerRequest: null`, which BullMQ
 * workers require); a producer fails fast (one retry, no offline queue): its wake-ups are
 * best effort, the jobs themselves live in PostgreSQL.
 */
export function redisConnection(
  redisUrl: string,
  role: 'worker' | 'producer',
): RedisConnectionOptions {
  const url = new URL(redisUrl);
  const forWorker = role === 'worker';
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) } : {}),
    maxRetriesPerRequest: forWorker ? null : 1,
    ...(forWorker ? {} : { enableOfflineQueue: false }),
  };
}
