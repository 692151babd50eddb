import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { RecordedEvent } from '@filiere/event-store';
import {
  applyEvents,
  createShadowTables,
  dropSchema,
  type PushMessage,
} from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../../database.js';
import { boardProjector } from './projector.js';

/**
 * Every event type the board follows in ONE batch — growers registered with plots, plots added
 * and changed (one of another grower's, one before its grower's registration, one for a grower
 * never registered), wallets opened (one twice), supplied, transferring and debited, one with
 * figures but no opening — gives the rows pinned below (as the per-event projector wrote
 * them), and so do the same events one and three per batch.
 */
describe('reporting-board projector: one batch of every event type (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  let position = 0;
  const start = new Date('2026-03-01T08:00:00.000Z').getTime();
  const event = (type: string, data: Record<string, unknown>): RecordedEvent => {
    position += 1;
    return {
      position,
      streamId: `s-${position}`,
      version: 1,
      type,
      schemaVersion: 1,
      data,
      metadata: {},
      recordedAt: new Date(start + position * 60_000),
    };
  };
  const [G1, G2, G3, G9] = ['g1', 'g2', 'g3', 'g9'];
  const registered = (growerId: string, n: number, plots: { plotId: string; areaSown: number }[]) =>
    event('GrowerRegistered', {
      growerId,
      userId: uuid(n),
      clusterId: uuid(n < 13 ? 31 : 32),
      reference: `PRD-${growerId}`,
      plots,
    });
  const events = [
    registered(G1, 11, [
      { plotId: 'p1', areaSown: 1.25 },
      { plotId: 'p2', areaSown: 0.3333 },
    ]),
    event('WalletOpened', { walletId: 'w1', ownerUserId: uuid(11) }),
    event('SupplyCredited', { walletId: 'w1', amount: 100_000 }),
    event('PlotAdded', { growerId: G1, plotId: 'p3', areaSown: 2 }),
    event('PlotChanged', {
      growerId: G1,
      plotId: 'p1',
      changes: [{ field: 'area_sown', to: 1.5 }],
    }),
    event('PlotChanged', { growerId: G1, plotId: 'p2', changes: [{ field: 'name', to: 'x' }] }),
    // G3's plot comes before its registration: the per-event update found no row.
    event('PlotAdded', { growerId: G3, plotId: 'p5', areaSown: 4 }),
    registered(G2, 12, []),
    registered(G3, 13, [{ plotId: 'p6', areaSown: '0.5' as unknown as number }]),
    // A plot of G1's, named with G2: the plot keeps G1, G2's area moves.
    event('PlotChanged', { growerId: G2, plotId: 'p3', changes: [{ field: 'area_sown', to: 3 }] }),
    event('PlotAdded', { growerId: G9, plotId: 'p9', areaSown: 9 }),
    event('WalletOpened', { walletId: 'w2', ownerUserId: uuid(12) }),
    event('TransferSent', { fromWalletId: 'w1', amount: 30_000 }),
    event('WithdrawalDebited', { walletId: 'w2', amount: 10_000 }),
    event('WithdrawalDebited', { walletId: 'w2', amount: 5_000 }),
    event('SupplyCredited', { walletId: 'w3', amount: 7_000 }),
    event('WalletOpened', { walletId: 'w2', ownerUserId: uuid(13) }),
  ];

  const show = (v: unknown) => (v === null ? 'NULL' : v === '' ? "''" : String(v));
  const rows = async (schema: string) => {
    const out: Record<string, string[]> = {};
    for (const table of boardProjector.tables) {
      const result = await sql<
        Record<string, unknown>
      >`select * from ${sql.id(schema, table)}`.execute(testDb.db);
      out[table] = result.rows.map((r) => Object.values(r).map(show).join(' ')).sort();
    }
    return out;
  };
  const applyIn = async (schema: string, size: number) => {
    const pushes: PushMessage[] = [];
    for (let i = 0; i < events.length; i += size) {
      await testDb.db
        .transaction()
        .execute((trx) =>
          applyEvents<Database>(trx, boardProjector, events.slice(i, i + size), schema, pushes),
        );
    }
    return pushes;
  };

  it('writes these rows, in one batch or in batches of one or three events', async () => {
    const user = (n: number, active: boolean) => ({
      id: uuid(n),
      firstname: 'F',
      lastname: `L${n}`,
      email: `u${n}@test.bj`,
      username: `u${n}`,
      role_id: 1,
      is_active: active,
    });
    await testDb.db
      .insertInto('users')
      .values([user(101, true), user(102, false)])
      .execute();
    const schemas = ['board_all', 'board_one', 'board_three'];
    try {
      for (const schema of schemas) await createShadowTables(testDb.db, boardProjector, schema);
      const pushes = await applyIn('board_all', events.length);
      await applyIn('board_one', 1);
      await applyIn('board_three', 3);
      const all = await rows('board_all');
      expect(await rows('board_one')).toEqual(all);
      expect(await rows('board_three')).toEqual(all);
      expect(pushes).toEqual([{ type: 'reporting.board', userIds: [uuid(101)] }]);
      expect(all).toMatchInlineSnapshot(`
        {
          "board_growers": [
            "g1 00000000-0000-4000-8000-000000000011 00000000-0000-4000-8000-000000000031 PRD-g1 3 38333",
            "g2 00000000-0000-4000-8000-000000000012 00000000-0000-4000-8000-000000000031 PRD-g2 0 10000",
            "g3 00000000-0000-4000-8000-000000000013 00000000-0000-4000-8000-000000000032 PRD-g3 1 5000",
          ],
          "board_plots": [
            "p1 g1 15000",
            "p2 g1 3333",
            "p3 g1 30000",
            "p5 g3 40000",
            "p6 g3 5000",
            "p9 g9 90000",
          ],
          "board_wallets": [
            "w1 00000000-0000-4000-8000-000000000011 0 0 1 100000 1 30000",
            "w2 00000000-0000-4000-8000-000000000013 2 15000 0 0 0 0",
            "w3 NULL 0 0 1 7000 0 0",
          ],
        }
      `);
    } finally {
      for (const schema of schemas) await dropSchema(testDb.db, schema);
    }
  });
});
