import { sql } from 'kysely';
import { useTestDatabase } from '@filiere/platform/testing';
import { describe, expect, it } from 'vitest';
import { EventStore } from './event-store.js';
import { Credited, testCatalogue } from './test-fixtures.js';
import { verifyLog } from './verify.js';
import type { EventStoreTables } from './schema/tables.js';

const database = useTestDatabase<EventStoreTables>();

describe('verifying the hash chain', () => {
  it('holds whether hashes come from the writer (known head) or the database (head moved)', async () => {
    const one = new EventStore(database.db, testCatalogue);
    const two = new EventStore(database.db, testCatalogue);
    for (let i = 0; i < 6; i++) {
      const store = i % 3 === 0 ? two : one; // "two" often finds the head moved by "one"
      await store.append([
        { streamId: 'account-h', expectedVersion: 'any', events: [Credited.create({ amount: 1 })] },
      ]);
    }
    one.headHint.known = { position: 6, hash: 'f'.repeat(64) }; // a wrong hint is ignored
    await one.append([
      { streamId: 'account-h', expectedVersion: 'any', events: [Credited.create({ amount: 1 })] },
    ]);
    expect(await verifyLog(database.db)).toEqual({ checked: 7, ok: true });
    await sql`truncate events`.execute(database.db);
    await sql`update event_head set position = 0, hash = repeat('0', 64)`.execute(database.db);
  });

  it('passes on an untouched log and finds the position of an event altered by SQL', async () => {
    const store = new EventStore(database.db, testCatalogue);
    for (let i = 1; i <= 20; i++) {
      await store.append([
        {
          streamId: `account-${i % 3}`,
          expectedVersion: 'any',
          events: [Credited.create({ amount: i })],
        },
      ]);
    }
    expect(await verifyLog(database.db, { pageSize: 6 })).toEqual({ checked: 20, ok: true });

    await sql`update events set data = '{"amount": 1000000}' where position = 13`.execute(
      database.db,
    );
    expect(await verifyLog(database.db, { pageSize: 6 })).toMatchObject({
      ok: false,
      brokenAt: 13,
      checked: 12,
    });
  });

  it('finds a deleted event and a rewritten tail', async () => {
    await sql`update events set data = '{"amount": 13}' where position = 13`.execute(database.db);
    expect((await verifyLog(database.db)).ok).toBe(true);
    await sql`delete from events where position = 20`.execute(database.db);
    expect(await verifyLog(database.db)).toMatchObject({ ok: false, brokenAt: 20 });
    await sql`delete from events where position = 5`.execute(database.db);
    expect(await verifyLog(database.db)).toMatchObject({ ok: false, brokenAt: 5 });
  });
});
