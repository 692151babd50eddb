import { describe, inject, it } from 'vitest';
import './provided.js';

/** True when the run must not skip tests for a missing service. */
export const isCI = ['true', '1'].includes(String(process.env.CI).toLowerCase());

/** The tests' Redis URL, or undefined when there is none (see describeWithRedis). */
export function testRedisUrl(): string | undefined {
  return inject('redisUrl') || undefined;
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
