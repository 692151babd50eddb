import { describe, expect, it } from 'vitest';
import { describeWithRedis } from '@filiere/platform/testing';
import { ProviderUnavailableError } from './port.js';
import {
  DEFAULT_VERIFICATION_BACKOFF,
  VerificationRetrier,
  verificationDelayMs,
  type VerificationJob,
  type VerificationOutcome,
} from './verification-retry.js';

const fast = { baseMs: 1, factor: 2, maxMs: 8, maxAttempts: 5 };

/** A check that answers PENDING (or throws) a few times, then FINAL; resolves when done. */
function scriptedCheck(answers: ('PENDING' | 'FINAL' | 'THROW')[]) {
  const seen: VerificationJob[] = [];
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));
  const check = async (job: VerificationJob): Promise<VerificationOutcome> => {
    seen.push(job);
    const answer = answers[seen.length - 1] ?? 'PENDING';
    if (answer === 'THROW') throw new ProviderUnavailableError('kkiapay', 'timeout');
    if (answer === 'FINAL') finish('final');
    return answer;
  };
  return { seen, done, finish, check };
}

describe('verification backoff', () => {
  it('doubles from 5 s, caps at 10 min and stops after the last attempt', () => {
    expect([1, 2, 3, 4].map((a) => verificationDelayMs(a))).toEqual([
      5_000, 10_000, 20_000, 40_000,
    ]);
    expect(verificationDelayMs(20)).toBe(600_000);
    expect(verificationDelayMs(DEFAULT_VERIFICATION_BACKOFF.maxAttempts + 1)).toBeNull();
    expect(verificationDelayMs(0)).toBeNull();
  });
});

describe('VerificationRetrier in process (no Redis)', () => {
  it('retries PENDING and provider errors until the check is final', async () => {
    const script = scriptedCheck(['PENDING', 'THROW', 'FINAL']);
    const retrier = new VerificationRetrier({ check: script.check, backoff: fast });
    await retrier.enqueue('REF', 'tx');
    await script.done;
    await retrier.close();
    expect(script.seen.map((j) => j.attempt)).toEqual([1, 2, 3]);
    expect(script.seen.every((j) => j.reference === 'REF' && j.transactionId === 'tx')).toBe(true);
  });

  it('gives up after the last attempt', async () => {
    const script = scriptedCheck([]);
    const retrier = new VerificationRetrier({
      check: script.check,
      backoff: fast,
      onGiveUp: async (job) => script.finish(`gave up at ${job.attempt}`),
    });
    await retrier.enqueue('REF', 'tx');
    expect(await script.done).toBe('gave up at 6');
    await retrier.close();
    expect(script.seen).toHaveLength(5);
  });
});

describeWithRedis('VerificationRetrier with BullMQ delayed jobs', (redisUrl) => {
  it('retries through Redis until final', async () => {
    const script = scriptedCheck(['PENDING', 'THROW', 'FINAL']);
    const retrier = new VerificationRetrier({ check: script.check, backoff: fast, redisUrl });
    try {
      await retrier.enqueue(`REF-${Date.now()}`, 'tx');
      await script.done;
      expect(script.seen.map((j) => j.attempt)).toEqual([1, 2, 3]);
    } finally {
      await retrier.close();
    }
  });
});
