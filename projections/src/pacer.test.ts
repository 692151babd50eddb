import { describe, expect, it } from 'vitest';
import { BatchPacer } from './pacer.js';

/** Milliseconds `wait()` took. */
async function timed(pacer: BatchPacer): Promise<number> {
  const start = performance.now();
  await pacer.wait();
  return performance.now() - start;
}

describe('BatchPacer', () => {
  it('lets the first run through at once, then spaces runs by the interval', async () => {
    const pacer = new BatchPacer(120);
    expect(await timed(pacer)).toBeLessThan(60);
    // Timers may fire a millisecond early: the interval counts from the previous start.
    expect(await timed(pacer)).toBeGreaterThanOrEqual(110);
    expect(await timed(pacer)).toBeGreaterThanOrEqual(110);
  });

  it('lets a run through at once after a quiet spell longer than the interval', async () => {
    const pacer = new BatchPacer(60);
    await pacer.wait();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await timed(pacer)).toBeLessThan(40);
  });

  it('ends a pending wait when hurried, and lets the next one through once', async () => {
    const pacer = new BatchPacer(10_000);
    await pacer.wait();
    const waiting = timed(pacer);
    setTimeout(() => pacer.hurry(), 50);
    expect(await waiting).toBeLessThan(2_000);
    pacer.hurry(); // no wait pending: the next one passes
    expect(await timed(pacer)).toBeLessThan(1_000);
    // …and only that one: the one after waits again (ended here by a hurry).
    const again = timed(pacer);
    let done = false;
    void again.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    pacer.hurry();
    await again;
  });

  it('ends every pending wait when hurried, side by side ones included', async () => {
    const pacer = new BatchPacer(10_000);
    await pacer.wait();
    const both = Promise.all([timed(pacer), timed(pacer)]);
    setTimeout(() => pacer.hurry(), 50);
    for (const ms of await both) expect(ms).toBeLessThan(2_000);
  });

  it('with an interval of 0, never waits', async () => {
    const pacer = new BatchPacer(0);
    for (let i = 0; i < 3; i++) expect(await timed(pacer)).toBeLessThan(40);
  });
});
