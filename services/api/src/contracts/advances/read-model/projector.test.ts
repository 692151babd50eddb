import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@filiere/event-store';
import { applyEvents, createShadowTables, dropSchema } from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../../database.js';
import { debtRecoveriesProjector } from './projector.js';

/**
 * The recoveries projector sums a batch's recoveries per (debt, contract) and writes them in
 * one insert: the rows must be those one insert per event gave, whatever the batching.
 */
describe('debt recoveries projector (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();

  it('one batch, or one event per batch in another schema (a replay), gives the same rows', async () => {
    let position = 0;
    const recovered = (debtId: string, contractId: string, amount: number, at: string) =>
      ({
        position: ++position,
        streamId: `debt-${debtId}`,
        version: position,
        type: 'DebtRecovered',
        schemaVersion: 1,
        data: { debtId, contractId, amount, recoveredAt: at },
        metadata: {},
        recordedAt: new Date(at),
      }) satisfies RecordedEvent;
    const [d1, d2, c1, c2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const events = [
      recovered(d1, c1, 3_000, '2026-11-23T08:00:00.000Z'),
      recovered(d2, c1, 5_000, '2026-11-23T08:00:01.000Z'),
      recovered(d1, c2, 4_000, '2026-11-23T08:00:02.000Z'),
      // The same debt and contract again (two parts): one row, their sum, the first instant.
      recovered(d1, c1, 1_000, '2026-11-23T08:00:03.000Z'),
    ];
    const db = testDb.db;
    await db
      .transaction()
      .execute((trx) => applyEvents<Database>(trx, debtRecoveriesProjector, events, 'public', []));
    const schema = 'recoveries_replay_spec';
    await createShadowTables(db, debtRecoveriesProjector, schema);
    try {
      for (const event of events) {
        await db
          .transaction()
          .execute((trx) =>
            applyEvents<Database>(trx, debtRecoveriesProjector, [event], schema, []),
          );
      }
      const rows = async (from: string) =>
        (
          await sql<{ debt_id: string; contract_id: string; amount: string; recovered_at: Date }>`
            select * from ${sql.id(from, 'grower_debt_recoveries')}
            where debt_id in (${d1}, ${d2}) order by debt_id, contract_id`.execute(db)
        ).rows.map((r) => ({ ...r, amount: Number(r.amount) }));
      const live = await rows('public');
      expect(live).toHaveLength(3);
      expect(live.find((r) => r.debt_id === d1 && r.contract_id === c1)).toMatchObject({
        amount: 4_000,
        recovered_at: new Date('2026-11-23T08:00:00.000Z'),
      });
      expect(await rows(schema)).toEqual(live);
    } finally {
      await dropSchema(db, schema);
    }
  });
});
