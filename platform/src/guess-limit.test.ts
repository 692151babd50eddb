import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithRedis } from './testing/index.js';
import { guessLimit, type GuessCounter, type GuessLimit } from './guess-limit.js';

const counter = (key: string, max: number): GuessCounter => ({
  key,
  window: { max, windowMs: 15 * 60_000 },
  message: (waitMs) => `Trop de codes incorrects (${Math.ceil(waitMs / 60_000)} min)`,
});

const statusOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
    return 'ok';
  } catch (error) {
    return (error as { statusCode?: number }).statusCode;
  }
};

function sharedRules(limitOf: () => GuessLimit) {
  it('wrong guesses count up to the limit; then a 429 that counts nothing, and right guesses are refused too', async () => {
    const limit = limitOf();
    const key = [counter(`k-${randomUUID()}`, 3)];
    for (let i = 0; i < 3; i++) await limit.take(key);
    await expect(limit.take(key)).rejects.toMatchObject({
      statusCode: 429,
      message: 'Trop de codes incorrects (15 min)',
      data: { retryAfter: expect.any(Number) },
    });
    await expect(limit.check(key)).rejects.toMatchObject({ statusCode: 429 });
  });

  it('a refunded guess is given back; right guesses never count', async () => {
    const limit = limitOf();
    const key = [counter(`k-${randomUUID()}`, 2)];
    for (let i = 0; i < 5; i++) await limit.check(key);
    const taken = await limit.take(key);
    await taken.refund();
    await taken.refund();
    await limit.take(key);
    await limit.take(key);
    expect(await statusOf(() => limit.take(key))).toBe(429);
  });

  it('several counters: the one at its limit refuses, and the others keep their count', async () => {
    const limit = limitOf();
    const caller = counter(`caller-${randomUUID()}`, 10);
    const grower = counter(`grower-${randomUUID()}`, 2);
    await limit.take([caller, grower]);
    await limit.take([caller, grower]);
    expect(await statusOf(() => limit.take([caller, grower]))).toBe(429);
    // The caller's count was not raised by the refused guess: 8 more fit.
    for (let i = 0; i < 8; i++) await limit.take([caller]);
    expect(await statusOf(() => limit.take([caller]))).toBe(429);
  });

  it('parallel wrong guesses never pass the limit together', async () => {
    const limit = limitOf();
    const key = [counter(`k-${randomUUID()}`, 5)];
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => statusOf(() => limit.take(key))),
    );
    expect(answers.filter((a) => a === 'ok')).toHaveLength(5);
    expect(answers.filter((a) => a === 429)).toHaveLength(25);
  });
}

describe('guess limit in one process (no Redis)', () => {
  sharedRules(() => guessLimit({}));

  it('the window ends: the counters start again', async () => {
    let now = 1_000_000;
    const limit = guessLimit({ now: () => now });
    const key = [counter('k', 1)];
    await limit.take(key);
    expect(await statusOf(() => limit.take(key))).toBe(429);
    now += 15 * 60_000;
    await limit.check(key);
    await limit.take(key);
  });
});

describeWithRedis('guess limit over Redis', (url) => {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  afterAll(async () => {
    redis.disconnect();
  });
  sharedRules(() => guessLimit({ redis }));

  it('two API processes share the counters', async () => {
    const other = new Redis(url, { maxRetriesPerRequest: 1 });
    try {
      const a = guessLimit({ redis });
      const b = guessLimit({ redis: other });
      const key = [counter(`k-${randomUUID()}`, 4)];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => statusOf(() => (i % 2 ? a : b).take(key))),
      );
      expect(answers.filter((s) => s === 'ok')).toHaveLength(4);
      expect(await statusOf(() => a.check(key))).toBe(429);
      expect(await statusOf(() => b.check(key))).toBe(429);
    } finally {
      other.disconnect();
    }
  });
});
