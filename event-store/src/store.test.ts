import { sql } from 'kysely';
import { useTestDatabase } from '@filiere/platform/testing';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError, EventDecodeError, EventEncodeError } from './errors.js';
import { EventStore } from './event-store.js';
import { headPosition, readAll, readStream } from './read.js';
import { Credited, Debited, Noted, testCatalogue } from './test-fixtures.js';
import { verifyLog } from './verify.js';
import type { EventStoreTables } from './schema/tables.js';

const database = useTestDatabase<EventStoreTables>();

describe('the event store', () => {
  it('appends several streams in one transaction with gap-free positions and versions', async () => {
    const store = new EventStore(database.db, testCatalogue);
    const heads: number[] = [];
    store.onAppended((head) => heads.push(head));
    const result = await store.append([
      {
        streamId: 'account-a',
        expectedVersion: 'noStream',
        events: [Credited.create({ amount: 100 })],
      },
      {
        streamId: 'account-b',
        expectedVersion: 'any',
        events: [Credited.create({ amount: 5 }), Debited.create({ amount: 2 })],
      },
    ]);
    expect(result).toEqual({
      positions: [1, 2, 3],
      nextVersions: { 'account-a': 1, 'account-b': 2 },
      duplicate: false,
    });
    expect(heads).toEqual([3]);
    const b = await readStream(database.db, 'account-b', { catalogue: testCatalogue });
    expect(b.map((e) => [e.version, e.type, e.data])).toEqual([
      [1, 'test.Credited', { amount: 5 }],
      [2, 'test.Debited', { amount: 2 }],
    ]);
    expect(await headPosition(database.db)).toBe(3);
    expect((await verifyLog(database.db)).ok).toBe(true);
  });

  it('refuses a wrong expected version with ConcurrencyError and appends nothing', async () => {
    const store = new EventStore(database.db, testCatalogue);
    const before = await headPosition(database.db);
    const attempt = store.append([
      {
        streamId: 'account-c',
        expectedVersion: 'noStream',
        events: [Credited.create({ amount: 1 })],
      },
      {
        streamId: 'account-a',
        expectedVersion: 'noStream',
        events: [Credited.create({ amount: 1 })],
      },
    ]);
    await expect(attempt).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(
      store.append([
        { streamId: 'account-a', expectedVersion: 7, events: [Debited.create({ amount: 1 })] },
      ]),
    ).rejects.toMatchObject({ statusCode: 409, data: { expectedVersion: 7, actualVersion: 1 } });
    expect(await headPosition(database.db)).toBe(before);
    expect(await readStream(database.db, 'account-c', { catalogue: testCatalogue })).toEqual([]);
  });

  it('returns the first result for an idempotency key seen before and appends nothing', async () => {
    const store = new EventStore(database.db, testCatalogue);
    const write = [
      {
        streamId: 'account-d',
        expectedVersion: 'any' as const,
        events: [Credited.create({ amount: 9 })],
      },
    ];
    const first = await store.append(write, {
      idempotencyKey: 'key-1',
      metadata: { userId: 'u1' },
    });
    const again = await store.append(write, { idempotencyKey: 'key-1' });
    expect(again).toEqual({ ...first, duplicate: true });
    const events = await readStream(database.db, 'account-d', { catalogue: testCatalogue });
    expect(events).toHaveLength(1);
    expect(events[0]!.metadata).toEqual({ userId: 'u1', commandId: 'key-1' });
  });

  it('refuses to append an event outside the catalogue or failing its schema', async () => {
    const store = new EventStore(database.db, testCatalogue);
    await expect(
      store.append([
        { streamId: 'account-e', expectedVersion: 'any', events: [{ type: 'nope', data: {} }] },
      ]),
    ).rejects.toBeInstanceOf(EventEncodeError);
    await expect(
      store.append([
        {
          streamId: 'account-e',
          expectedVersion: 'any',
          events: [{ type: Credited.type, data: { amount: -1 } }],
        },
      ]),
    ).rejects.toBeInstanceOf(EventEncodeError);
  });

  it('upcasts old schema versions and fails loudly, with the position, on unreadable events', async () => {
    const head = await headPosition(database.db);
    const store = new EventStore(database.db, testCatalogue);
    await store.append([
      { streamId: 'note-1', expectedVersion: 'any', events: [Noted.create({ count: 3 })] },
    ]);
    // An old payload (schema version 1), written as an older release would have.
    await sql`update events set schema_version = 1, data = '{"n": 4}' where position = ${head + 1}`.execute(
      database.db,
    );
    const [upcast] = await readAll(database.db, {
      after: head,
      limit: 10,
      catalogue: testCatalogue,
    });
    expect(upcast).toMatchObject({ position: head + 1, schemaVersion: 1, data: { count: 4 } });

    await sql`update events set type = 'test.Unknown' where position = ${head + 1}`.execute(
      database.db,
    );
    const unknown = readAll(database.db, { after: head, limit: 10, catalogue: testCatalogue });
    await expect(unknown).rejects.toBeInstanceOf(EventDecodeError);
    await expect(unknown).rejects.toMatchObject({ position: head + 1 });

    await sql`update events set type = 'test.Credited', data = '{"amount": "x"}' where position = ${head + 1}`.execute(
      database.db,
    );
    await expect(
      readAll(database.db, { after: head, limit: 10, catalogue: testCatalogue }),
    ).rejects.toThrow(`position ${head + 1}`);
    await sql`delete from events where position = ${head + 1}`.execute(database.db);
  });

  it('notifies the events channel with the new head on commit', async () => {
    const { default: pg } = await import('pg');
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    try {
      const received = new Promise<string>((resolve) =>
        listener.on('notification', (n) => resolve(n.payload ?? '')),
      );
      await listener.query('LISTEN filiere_events');
      const store = new EventStore(database.db, testCatalogue);
      const { positions } = await store.append([
        { streamId: 'account-f', expectedVersion: 'any', events: [Credited.create({ amount: 1 })] },
      ]);
      expect(await received).toBe(String(positions[0]));
    } finally {
      await listener.end();
    }
  });
});
