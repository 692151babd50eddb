import { describe, inject, it } from 'vitest';
import './provided.js';

/** True when the run must not skip tests for a missing service. */
export const isCI = ['true', '1'].includes(String(process.env.CI).toLowerCase());

/**
 * The tests' Redis URL, or undefined when there is none (see describeWithRedis): the run's one
 * Redis, in a logical database of this vitest worker's own (1 + VITEST_POOL_ID mod 15). Files
 * run side by side then never share keys: BullMQ's queues have fixed names (the projections'
 * group job, the wallet's jobs), and one file's worker took another file's job (its sweep
 * recovered it seconds later). Files of one worker run one after the other.
 */
export function testRedisUrl(): string | undefined {
  const url = inject('redisUrl');
  if (!url) return undefined;
  const parsed = new URL(url);
  const pool = Number(process.env.VITEST_POOL_ID ?? 0);
  parsed.pathname = `/${1 + ((Number.isInteger(pool) ? pool : 0) % 15)}`;
  return parsed.toString();
}

/**
 * A describe block that needs Redis. Without Redis it is skipped with the reason
 * printed, except under CI=true, where it fails.
 */
export function describeWithRedis(name: string, fn: (redisUrl: string) => void): void {
  const url = testRedisUrl();
  if (url) {
    describe(name, () => fn(url));
    return;
  }
  const reason = inject('redisMissingReason') || 'no Redis available';
  if (isCI) {
    describe(name, () => {
      it('needs Redis', () => {
        throw new Error(`CI=true and Redis is missing: ${reason}`);
      });
    });
    return;
  }
  console.warn(
    `[skipped] "${name}" needs Redis: ${reason}. Set REDIS_URL or install redis-server.`,
  );
  describe.skip(name, () => fn(''));
}
