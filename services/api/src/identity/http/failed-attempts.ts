import type { Redis } from 'ioredis';
import type { Logger } from '@filiere/platform';

/**
 * Counters of attempts that may fail (a password, a link's token), over a fixed window that
 * starts with the key's first attempt. An attempt is counted when it starts (so parallel
 * guesses cannot all pass a check made before any of them failed) and given back once it
 * succeeded: what stays counted is the failures (and the attempts still running).
 */
export interface AttemptCounter {
  /** Counts one attempt; answers the count in the window and the milliseconds it has left. */
  take(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** Gives back an attempt that succeeded (never below zero; nothing once the window ended). */
  giveBack(key: string): Promise<void>;
}

/** The most keys a process keeps; the oldest windows go first beyond it. */
const LOCAL_KEYS = 10_000;

/** The counters of one process (no Redis, or while Redis does not answer). */
export function localAttemptCounter(now: () => number = Date.now): AttemptCounter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const window = windows.get(key);
    if (window && window.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };
  return {
    async take(key, windowMs) {
      let window = live(key);
      if (!window) {
        if (windows.size >= LOCAL_KEYS) {
          for (const [k, w] of windows) if (w.resetAt <= now()) windows.delete(k);
          // Still full: the oldest window goes (Map keeps insertion order).
          if (windows.size >= LOCAL_KEYS) windows.delete(windows.keys().next().value!);
        }
        window = { count: 0, resetAt: now() + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, ttlMs: window.resetAt - now() };
    },
    async giveBack(key) {
      const window = live(key);
      if (window && window.count > 0) window.count -= 1;
    },
  };
}

const TAKE = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * Counters in Redis under `prefix`, shared by every API process. While Redis does not answer,
 * each process counts on its own (the limits hold per process) instead of failing the request.
 */
export function redisAttemptCounter(redis: Redis, prefix: string, logger: Logger): AttemptCounter {
  const local = localAttemptCounter();
  let failing = false;
  const fallBack = (error: unknown) => {
    if (!failing)
      logger.warn({ err: error }, 'attempt limits: Redis does not answer, counting per process');
    failing = true;
  };
  const recovered = () => {
    if (failing) logger.info('attempt limits: Redis answers again, counters shared');
    failing = false;
  };
  return {
    async take(key, windowMs) {
      try {
        const [count, ttlMs] = (await redis.eval(TAKE, 1, `${prefix}${key}`, windowMs)) as [
          number,
          number,
        ];
        recovered();
        return { count: Number(count), ttlMs: Number(ttlMs) };
      } catch (error) {
        fallBack(error);
        return local.take(key, windowMs);
      }
    },
    async giveBack(key) {
      try {
        await redis.eval(GIVE_BACK, 1, `${prefix}${key}`);
        recovered();
      } catch (error) {
        fallBack(error);
        await local.giveBack(key);
      }
    },
  };
}
