import { Redis } from 'ioredis';
import { expect, inject, it } from 'vitest';
import { describeWithRedis } from './redis.js';

describeWithRedis('the tests’ Redis', (redisUrl) => {
  it('answers and stores values', async () => {
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.ping()).toBe('PONG');
      await redis.set('filiere:test', '42');
      expect(await redis.get('filiere:test')).toBe('42');
    } finally {
      redis.disconnect();
    }
  });

  it("is a logical database of this vitest worker's own: what a file writes, another worker's files do not see", async () => {
    const database = Number(new URL(redisUrl).pathname.slice(1));
    expect(database).toBe(1 + (Number(process.env.VITEST_POOL_ID ?? 0) % 15));
    const mine = new Redis(redisUrl);
    const other = new URL(inject('redisUrl'));
    other.pathname = `/${database === 15 ? 1 : database + 1}`;
    const theirs = new Redis(other.toString());
    try {
      await mine.set('filiere:test:own', 'x');
      expect(await theirs.get('filiere:test:own')).toBeNull();
    } finally {
      await mine.del('filiere:test:own');
      mine.disconnect();
      theirs.disconnect();
    }
  });
});
