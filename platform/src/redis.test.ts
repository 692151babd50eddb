import { describe, expect, it } from 'vitest';
import { redisConnection } from './redis.js';

describe('redisConnection', () => {
  it('reads host, port, credentials and database from REDIS_URL', () => {
    expect(redisConnection('redis://us%40r:p%3Ass@cache.local:6380/3', 'worker')).toEqual({
      host: 'cache.local',
      port: 6380,
      username: 'us@r',
      password: 'p:ss',
      db: 3,
      maxRetriesPerRequest: null,
    });
  });

  it('makes producers fail fast and workers wait for Redis', () => {
    const producer = redisConnection('redis://127.0.0.1', 'producer');
    expect(producer).toEqual({
      host: '127.0.0.1',
      port: 6379,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    expect(redisConnection('redis://127.0.0.1', 'worker').maxRetriesPerRequest).toBeNull();
  });
});
