import { setTimeout as sleep } from 'node:timers/promises';
import { useTestDatabase } from '@filiere/platform/testing';
import { describe, expect, it } from 'vitest';
import { EventStore } from './event-store.js';
import { readAll } from './read.js';
import { Credited, testCatalogue } from './test-fixtures.js';
import { writeEvents } from './write.js';
import type { EventStoreTables } from './schema/tables.js';

const database = useTestDatabase<EventStoreTables>();

describe('global order without gaps for readers', () => {
  it('never lets a reader read past a transaction that took its position and stalls 2 s', async () => {
    const store = new EventStore(database.db, testCatalogue);
    for (let i = 0; i < 3; i++) {
      await store.append([
        {
          streamId: `account-${i}`,
          expectedVersion: 'any',
          events: [Credited.create({ amount: 1 })],
        },
      ]);
    }

    let commitIssued = false;
    let done = false;
    const observed: number[] = [];
    const readsBeforeCommit: number[][] = [];
    const reader = (async () => {
      let last = 0;
      while (!done) {
        const page = await readAll(database.db, {
          after: last,
          limit: 100,
          catalogue: testCatalogue,
        });
        if (!commitIssued) readsBeforeCommit.push(page.map((e) => e.position));
        for (const event of page) observed.push(event.position);
        last = page.at(-1)?.position ?? last;
      }
      for (;;) {
        const page = await readAll(database.db, {
          after: last,
          limit: 100,
          catalogue: testCatalogue,
        });
        if (page.length === 0) break;
        observed.push(...page.map((e) => e.position));
        last = page.at(-1)!.position;
      }
    })();

    let stalledPosition = 0;
    let positionTaken!: () => void;
    const taken = new Promise<void>((resolve) => (positionTaken = resolve));
    const stalled = database.db.transaction().execute(async (trx) => {
      const { firstPosition } = await writeEvents(trx, [
        {
          streamId: 'account-stalled',
          version: 1,
          type: Credited.type,
          schemaVersion: 1,
          data: { amount: 7 },
          metadata: {},
        },
      ]);
      stalledPosition = firstPosition;
      positionTaken();
      await sleep(2000);
      commitIssued = true;
    });

    await taken;
    const others = Array.from({ length: 5 }, async (_, i) => {
      const result = await store.append([
        {
          streamId: `account-other${i}`,
          expectedVersion: 'any',
          events: [Credited.create({ amount: 2 })],
        },
      ]);
      return { result, afterStalledCommit: commitIssued };
    });
    await stalled;
    const finished = await Promise.all(others);
    done = true;
    await reader;

    expect(stalledPosition).toBe(4);
    // The others committed after the stalled transaction and got later positions.
    for (const { result, afterStalledCommit } of finished) {
      expect(afterStalledCommit).toBe(true);
      expect(result.positions[0]).toBeGreaterThan(stalledPosition);
    }
    // While it stalled, readers kept reading and never saw anything at or past its position.
    expect(readsBeforeCommit.length).toBeGreaterThan(10);
    expect(Math.max(0, ...readsBeforeCommit.flat())).toBeLessThan(stalledPosition);
    // What the reader observed, in order, is every position exactly once: nothing skipped.
    expect(observed).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));
  });
});
