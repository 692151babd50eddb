import { describe, expect, it, vi } from 'vitest';
import { InProcessLoop, type LoopRunner } from './in-process-loop.js';
import { createLogger } from './logger.js';

const logger = createLogger('silent', false);

/** A runner whose `runDue` runs the queued jobs (one per call) and records the calls. */
function fakeRunner(withScheduling: boolean) {
  const calls: string[] = [];
  let queued = 0;
  const runner: LoopRunner & { queue(n: number): void } = {
    queue: (n) => void (queued += n),
    runDue: async () => {
      calls.push('runDue');
      if (queued === 0) return 0;
      queued--;
      return 1;
    },
    recover: async () => {
      calls.push('recover');
      queued += 2;
    },
    sweep: async () => void calls.push('sweep'),
  };
  if (withScheduling) runner.onScheduled = () => undefined;
  return { runner, calls };
}

describe('the one in-process job loop', () => {
  it('recovers and sweeps at start, then runs due jobs until none is left', async () => {
    const { runner, calls } = fakeRunner(true);
    const loop = new InProcessLoop(runner, logger, { name: 'test jobs', pollMs: 60_000 });
    loop.start();
    await vi.waitFor(() => expect(calls.filter((c) => c === 'runDue')).toHaveLength(3));
    await loop.idle();
    expect(calls).toEqual(['sweep', 'recover', 'runDue', 'runDue', 'runDue']);
    await loop.stop();
  });

  it('is woken by a job scheduled now, not by one scheduled later; stop unhooks it', async () => {
    const { runner, calls } = fakeRunner(true);
    const loop = new InProcessLoop(runner, logger, { name: 'test jobs', pollMs: 60_000 });
    loop.start();
    await vi.waitFor(() => expect(calls).toContain('runDue'));
    await loop.idle();
    calls.length = 0;
    runner.queue(1);
    runner.onScheduled!(new Date(Date.now() + 60_000));
    await loop.idle();
    expect(calls).toEqual([]);
    runner.onScheduled!(new Date());
    await loop.idle();
    expect(calls).toEqual(['runDue', 'runDue']);
    await loop.stop();
    calls.length = 0;
    runner.queue(1);
    runner.onScheduled!(new Date());
    loop.wake();
    await loop.idle();
    expect(calls).toEqual([]);
  });

  it('coalesces wake-ups during a run into one more run, and survives a failing run', async () => {
    let release: () => void = () => undefined;
    const calls: string[] = [];
    let fail = true;
    const runner: LoopRunner = {
      runDue: async () => {
        calls.push('runDue');
        if (fail) {
          fail = false;
          throw new Error('database down');
        }
        await new Promise<void>((resolve) => (release = resolve));
        return 0;
      },
    };
    const loop = new InProcessLoop(runner, logger, { name: 'test jobs', pollMs: 60_000 });
    loop.start(); // no recover: runs at once, and fails
    await loop.idle();
    expect(calls).toEqual(['runDue']);
    expect('onScheduled' in runner).toBe(false); // a runner without scheduling is left as is
    loop.wake();
    loop.wake();
    loop.wake();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    release();
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    release();
    await loop.idle();
    expect(calls).toHaveLength(3);
    await loop.stop();
  });
});
