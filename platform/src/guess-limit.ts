import type { Redis } from 'ioredis';
import { TooManyRequestsError } from './errors.js';
import type { Logger } from 'pino';

/** At most `max` wrong guesses in a fixed window of `windowMs`. */
export interface GuessWindow {
  max: number;
  windowMs: number;
}

/** One counter a guess is counted on: its key, its window and the French 429 it answers. */
export interface GuessCounter {
  key: string;
  window: GuessWindow;
  /** The 429's message, given the wait before the window ends. */
  message: (waitMs: number) => string;
}

/** A guess taken on its counters: `refund()` gives it back when it was not a wrong guess. */
export interface TakenGuess {
  refund(): Promise<void>;
}

/**
 * Counts the wrong guesses of a secret (a delivery code) on several counters at once; only
 * wrong guesses count. The caller compares the secret first, then makes ONE atomic step per
 * counter: a wrong guess is `take`n (counted; past the limit a 429 that counts nothing), a
 * right one `check`s that no counter has reached its limit (429 if one has). Redis orders
 * these steps, so a burst of parallel guesses is judged as if they came one after another: a
 * right code that comes after the limit's wrong ones is refused too. The 429 carries the
 * counter's French message and `retryAfter` in seconds.
 */
export interface GuessLimit {
  /** A wrong guess: counted on every counter (refund() gives it back, e.g. out of reach). */
  take(counters: readonly GuessCounter[]): Promise<TakenGuess>;
  /** A right guess: refused while a counter is at its limit; counts nothing. */
  check(counters: readonly GuessCounter[]): Promise<void>;
}

/** Redis keys of the shared counters. */
export const GUESS_PREFIX = 'filiere:guesses:';

// INCR, the window's expiry set by the first guess, and the time left: one atomic step.
const TAKE = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;
// The count and the time left, read together.
const PEEK = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`;
// A refund never outlives the window: an expired counter is not recreated.
const REFUND = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0`;

interface Store {
  incr(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  peek(key: string): Promise<{ count: number; ttlMs: number }>;
  decr(key: string): Promise<void>;
}

/** Counters of this process (no Redis, or while Redis does not answer). */
function localStore(now: () => number): Store {
  const counters = new Map<string, { count: number; resetAt: number }>();
  return {
    async incr(key, windowMs) {
      const at = now();
      let counter = counters.get(key);
      if (!counter || counter.resetAt <= at) {
        counter = { count: 0, resetAt: at + windowMs };
        counters.set(key, counter);
      }
      counter.count++;
      if (counters.size > 10_000) {
        for (const [k, c] of counters) if (c.resetAt <= at) counters.delete(k);
      }
      return { count: counter.count, ttlMs: counter.resetAt - at };
    },
    async peek(key) {
      const at = now();
      const counter = counters.get(key);
      if (!counter || counter.resetAt <= at) return { count: 0, ttlMs: 0 };
      return { count: counter.count, ttlMs: counter.resetAt - at };
    },
    async decr(key) {
      const counter = counters.get(key);
      if (counter && counter.count > 0) counter.count--;
    },
  };
}

/** Counters in Redis, shared by every API process; per process while Redis does not answer. */
function sharedStore(redis: Redis, logger: Logger | undefined, local: Store): Store {
  let failing = false;
  const fallback = (error: unknown) => {
    if (!failing) logger?.warn({ err: error }, 'guess limits: Redis does not answer, per process');
    failing = true;
  };
  return {
    async incr(key, windowMs) {
      try {
        const [count, ttlMs] = (await redis.eval(TAKE, 1, GUESS_PREFIX + key, windowMs)) as [
          number,
          number,
        ];
        failing = false;
        return { count, ttlMs: ttlMs > 0 ? ttlMs : windowMs };
      } catch (error) {
        fallback(error);
        return local.incr(key, windowMs);
      }
    },
    async peek(key) {
      try {
        const [count, ttlMs] = (await redis.eval(PEEK, 1, GUESS_PREFIX + key)) as [number, number];
        failing = false;
        return { count, ttlMs: Math.max(0, ttlMs) };
      } catch (error) {
        fallback(error);
        return local.peek(key);
      }
    },
    async decr(key) {
      try {
        await redis.eval(REFUND, 1, GUESS_PREFIX + key);
      } catch (error) {
        fallback(error);
        await local.decr(key);
      }
    },
  };
}

/** The guess limit over Redis when given, else over this process's counters. */
export function guessLimit(options: {
  redis?: Redis | undefined;
  logger?: Logger | undefined;
  now?: () => number;
}): GuessLimit {
  const local = localStore(options.now ?? Date.now);
  const store = options.redis ? sharedStore(options.redis, options.logger, local) : local;
  const refuse = (counter: GuessCounter, ttlMs: number) =>
    new TooManyRequestsError(counter.message(ttlMs), {
      retryAfter: Math.max(1, Math.ceil(ttlMs / 1000)),
    });
  return {
    async check(counters) {
      for (const counter of counters) {
        const { count, ttlMs } = await store.peek(counter.key);
        if (count >= counter.window.max) throw refuse(counter, ttlMs);
      }
    },
    async take(counters) {
      const taken: string[] = [];
      const refund = async () => {
        await Promise.all(taken.map((key) => store.decr(key)));
      };
      for (const counter of counters) {
        const { count, ttlMs } = await store.incr(counter.key, counter.window.windowMs);
        taken.push(counter.key);
        if (count > counter.window.max) {
          await refund();
          throw refuse(counter, ttlMs);
        }
      }
      let refunded = false;
      return {
        async refund() {
          if (refunded) return;
          refunded = true;
          await refund();
        },
      };
    },
  };
}
