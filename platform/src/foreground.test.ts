import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { Foreground, ForegroundYield } from './foreground.js';
import { InProcessLoop, type LoopRunner } from './in-process-loop.js';
import { createLogger } from './logger.js';

const logger = createLogger('silent', false);

/** A runner with `pending` jobs, one per runDue, each recorded with the foreground's state. */
function jobs(pending: number, foreground: Foreground) {
  const ran: boolean[] = [];
  const runner: LoopRunner = {
    runDue: async () => {
      if (pending === 0) return 0;
      pending--;
      ran.push(foreground.busy);
      return 1;
    },
  };
  return { runner, ran };
}

describe('foreground work and the loops that yield to it', () => {
  it('a yielding loop runs nothing while the foreground is busy, everything once it ends', async () => {
    const foreground = new Foreground();
    const { runner, ran } = jobs(3, foreground);
    const loop = new InProcessLoop(runner, logger, {
      name: 'payouts',
      pollMs: 60_000,
      yieldTo: foreground,
    });
    const end = foreground.begin();
    loop.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(ran).toEqual([]);
    end();
    end(); // ending twice ends once
    expect(foreground.busy).toBe(false);
    await vi.waitFor(() => expect(ran).toEqual([false, false, false]));
    await loop.stop();
  });

  it('is never starved: after maxYieldMs of a busy foreground it runs anyway', async () => {
    const foreground = new Foreground();
    const { runner, ran } = jobs(2, foreground);
    const loop = new InProcessLoop(runner, logger, {
      name: 'payouts',
      pollMs: 60_000,
      yieldTo: foreground,
      maxYieldMs: 200,
    });
    foreground.begin();
    loop.start();
    await vi.waitFor(() => expect(ran).toEqual([true, true]));
    expect(foreground.busy).toBe(true);
    await loop.stop();
  });

  it('ForegroundYield: no wait while idle; while busy, maxMs of waiting, then as long free', async () => {
    const foreground = new Foreground();
    const yielding = new ForegroundYield(foreground, 150, 10);
    const timed = async () => {
      const start = performance.now();
      await yielding.wait();
      return performance.now() - start;
    };
    expect(await timed()).toBeLessThan(50);
    const end = foreground.begin();
    expect(await timed()).toBeGreaterThanOrEqual(140); // waited its 150 ms
    expect(await timed()).toBeLessThan(50); // then free for 150 ms
    await new Promise((r) => setTimeout(r, 170));
    const waiting = timed();
    await new Promise((r) => setTimeout(r, 60));
    end(); // the foreground ends during the wait: the wait ends with it
    const waited = await waiting;
    expect(waited).toBeGreaterThanOrEqual(50);
    expect(waited).toBeLessThan(140);
  });

  it('a marking loop is foreground for the whole of its run (every batch), then not', async () => {
    const foreground = new Foreground();
    const { runner, ran } = jobs(3, foreground);
    const loop = new InProcessLoop(runner, logger, {
      name: 'contract runs',
      pollMs: 60_000,
      marks: foreground,
    });
    loop.start();
    await vi.waitFor(() => expect(ran).toEqual([true, true, true]));
    await loop.idle();
    expect(foreground.busy).toBe(false);
    await loop.stop();
  });

  it('another thread sees it through the shared buffer', async () => {
    const foreground = new Foreground();
    const end = foreground.begin();
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const cell = new Int32Array(workerData);
       parentPort.on('message', () => parentPort.postMessage(Atomics.load(cell, 0)));`,
      { eval: true, workerData: foreground.buffer },
    );
    const ask = () =>
      new Promise<number>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('busy?');
      });
    try {
      expect(await ask()).toBe(1);
      end();
      expect(await ask()).toBe(0);
    } finally {
      await worker.terminate();
    }
  });
});
