import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../modules.js';
import { DemoStepClock } from './demo.js';

const HOUR = 3_600_000;

/**
 * The demo clock on a log that already ends at a real moment (a demo step loaded by an earlier
 * start, an event written before the demo): moments before that end cannot be shown, and the
 * clock must still never date a stream's event before the one it follows.
 */
describe('the demo clock on a log that already has events', () => {
  const testDb = useTestDatabase<Database>();
  let position = 0;

  const append = (streamId: string, version: number, recordedAt?: Date) => {
    position += 1;
    return sql`
      insert into public.events (position, stream_id, version, type, data, metadata, hash,
                                 recorded_at)
      values (${position}, ${streamId}, ${version}, 'Tested', '{}', '{}', repeat('0', 64),
              coalesce(${recordedAt ?? null}::timestamptz, now()))`.execute(testDb.db);
  };

  it('keeps a stream in time order when two moments fall before the log’s end', async () => {
    await append('before-the-demo', 1, new Date(Date.now() - 60_000));
    const clock = new DemoStepClock(testDb.db);
    await clock.start();

    // Two moments hours before the log's last event, the second later than the first: the
    // stream's second event must not be dated before its first.
    await clock.set(new Date(Date.now() - 10 * HOUR));
    await sleep(50);
    await append('contract', 1);
    await clock.set(new Date(Date.now() - 9 * HOUR));
    await append('contract', 2);

    await expect(clock.finish(2)).resolves.toBeUndefined();
    const { rows } = await sql<{ version: number; recorded_at: Date }>`
      select version, recorded_at from public.events where stream_id = 'contract'
      order by version`.execute(testDb.db);
    expect(rows[1]!.recorded_at.getTime()).toBeGreaterThanOrEqual(rows[0]!.recorded_at.getTime());
    // Nothing is dated before what the log held when the demo began.
    expect(rows[0]!.recorded_at.getTime()).toBeGreaterThan(Date.now() - 61_000);
  });
});
