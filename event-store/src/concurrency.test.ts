import { sql } from 'kysely';
import { useTestDatabase } from '@filiere/platform/testing';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError } from './errors.js';
import { EventStore } from './event-store.js';
import { streamVersions } from './read.js';
import { Credited, testCatalogue } from './test-fixtures.js';
import { verifyLog } from './verify.js';
import type { EventStoreTables } from './schema/tables.js';

const database = useTestDatabase<EventStoreTables>();
const APPENDS_EACH = 6;
const TOTAL = 50 * APPENDS_EACH;

describe('50 concurrent appenders on 10 streams', () => {
  it('loses and duplicates no version, and positions become visible in increasing order', async () => {
    const store = new EventStore(database.db, testCatalogue);
    const streams = Array.from({ length: 10 }, (_, i) => `account-s${i}`);
    const written: string[] = [];
    let conflicts = 0;
    let done = false;
    const snapshots: { count: number; max: number }[] = [];
    const watcher = (async () => {
      while (!done) {
        const { rows } = await sql<{ count: number; max: number }>`
          select count(*)::int as count, coalesce(max(position), 0) as max from events`.execute(
          database.db,
        );
        snapshots.push(rows[0]!);
      }
    })();

    const appender = async (n: number) => {
      for (let i = 0; i < APPENDS_EACH; i++) {
        const streamId = streams[(n + i) % streams.length]!;
        for (;;) {
          const version = (await streamVersions(database.db, [streamId])).get(streamId)!;
          try {
            const { positions } = await store.append([
              {
                streamId,
                expectedVersion: version,
                events: [Credited.create({ amount: n * 100 + i + 1 })],
              },
            ]);
            written.push(`${streamId}@${version + 1}#${positions[0]}`);
            break;
          } catch (error) {
            if (!(error instanceof ConcurrencyError)) throw error;
            conflicts++;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: 50 }, (_, n) => appender(n)));
    done = true;
    await watcher;

    const { rows } = await sql<{ stream_id: string; version: number; position: number }>`
      select stream_id, version, position from events order by position`.execute(database.db);
    expect(rows).toHaveLength(TOTAL);
    expect(rows.map((r) => Number(r.position))).toEqual(
      Array.from({ length: TOTAL }, (_, i) => i + 1),
    );
    // Every acknowledged append is stored where its caller was told, and nothing else is.
    expect(rows.map((r) => `${r.stream_id}@${r.version}#${r.position}`).sort()).toEqual(
      written.sort(),
    );
    const versions = await streamVersions(database.db, streams);
    for (const id of streams) {
      const stored = rows.filter((r) => r.stream_id === id).map((r) => r.version);
      expect(stored).toEqual(Array.from({ length: versions.get(id)! }, (_, i) => i + 1));
    }
    // Each snapshot a reader took was a gap-free prefix: commit order is position order.
    expect(snapshots.length).toBeGreaterThan(5);
    for (const s of snapshots) expect(s.count).toBe(Number(s.max));
    expect(conflicts).toBeGreaterThan(0);
    expect(await verifyLog(database.db)).toEqual({ checked: TOTAL, ok: true });
  }, 60_000);
});
