import { describe, expect, it } from 'vitest';
import { localAttemptCounter } from './failed-attempts.js';

describe('the per-process attempt counter', () => {
  it('counts attempts in a window from the first one; a given-back attempt no longer counts; the window ends', async () => {
    let now = 1_000;
    const counter = localAttemptCounter(() => now);
    expect(await counter.take('k', 900)).toEqual({ count: 1, ttlMs: 900 });
    now += 100;
    expect(await counter.take('k', 900)).toEqual({ count: 2, ttlMs: 800 });
    await counter.giveBack('k');
    expect(await counter.take('k', 900)).toEqual({ count: 2, ttlMs: 800 });
    // Another key has its own window.
    expect((await counter.take('other', 900)).count).toBe(1);
    now += 800;
    // The window ended: a new one starts, and nothing is given back below zero.
    await counter.giveBack('k');
    expect(await counter.take('k', 900)).toEqual({ count: 1, ttlMs: 900 });
    await counter.giveBack('k');
    await counter.giveBack('k');
    expect((await counter.take('k', 900)).count).toBe(1);
  });
});
