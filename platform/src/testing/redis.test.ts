import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
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
});
