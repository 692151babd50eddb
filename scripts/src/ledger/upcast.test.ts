import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildCatalogue, type ContextModule } from '@filiere/api/modules';
import { defineEvent, EventStore } from '@filiere/event-store';
import { useTestDatabase } from '@filiere/platform/testing';
import {
  catalogueDecoder,
  catchUp,
  defineProjector,
  type ProjectionTables,
  type Projector,
} from '@filiere/projections';
import { runLedgerCheck } from './check-run.js';
import { runLedgerRebuild } from './rebuild-run.js';

/**
 * The catalogue the ledger commands replay with is the modules' own, the one the live
 * projectors decode with: before, ledger:rebuild and ledger:check never defined the
 * wallet's events and replayed raw payloads, so the first event type to get a version 2
 * and an upcaster would have rebuilt differently from what the live system projected.
 */
/** The test projector's table. */
interface UpcastTables {
  upcast_totals: { stream_id: string; total: number; n: number };
}

const t = useTestDatabase<ProjectionTables & UpcastTables>();

/** Version 1 paid `amount: 5`; version 2 says `amount: { value: 5, currency: 'XOF' }`. */
const PaidV1 = defineEvent({
  type: 'upcastTest.Paid',
  version: 1,
  schema: z.object({ amount: z.number().int() }),
});
const PaidV2 = defineEvent({
  type: 'upcastTest.Paid',
  version: 2,
  schema: z.object({ amount: z.object({ value: z.number().int(), currency: z.literal('XOF') }) }),
  upcast: (data, fromVersion) =>
    fromVersion === 1
      ? { amount: { value: (data as { amount: number }).amount, currency: 'XOF' } }
      : data,
});

/** Totals per stream in `upcast_totals`; `amountOf` reads the payload's shape of its version. */
function totalsProjector(amountOf: (data: any) => number): Projector {
  return defineProjector<UpcastTables>({
    name: 'upcast-totals',
    eventTypes: [PaidV1.type],
    tables: ['upcast_totals'],
    async apply(trx, events) {
      for (const e of events) {
        await trx
          .insertInto('upcast_totals')
          .values({ stream_id: e.streamId, total: amountOf(e.data), n: 1 })
          .onConflict((oc) =>
            oc.column('stream_id').doUpdateSet({
              total: sql`upcast_totals.total + excluded.total`,
              n: sql`upcast_totals.n + 1`,
            }),
          )
          .execute();
      }
    },
  });
}

const paymentsV1: ContextModule = {
  name: 'payments',
  events: [PaidV1],
  migrations: {},
  projectors: [totalsProjector((data) => data.amount)],
};
const paymentsV2: ContextModule = {
  name: 'payments',
  events: [PaidV2],
  migrations: {},
  projectors: [totalsProjector((data) => data.amount.value)],
};

async function liveRun<DB extends ProjectionTables>(
  db: Kysely<DB>,
  module: ContextModule,
): Promise<void> {
  const decode = catalogueDecoder(buildCatalogue([module]));
  for (const projector of module.projectors) await catchUp(db, projector, { decode });
}

const totals = (db: Kysely<ProjectionTables & UpcastTables>) =>
  db.selectFrom('upcast_totals').selectAll().orderBy('stream_id').execute();

describe('an event type that gets a version 2 and an upcaster', () => {
  it('ledger:check and ledger:rebuild replay exactly what the live projector wrote', async () => {
    await sql`create table upcast_totals (
      stream_id text primary key, total bigint not null, n integer not null)`.execute(t.db);
    // Version 1 in production: events written and projected live.
    const v1 = new EventStore(t.db, buildCatalogue([paymentsV1]));
    for (const [stream, amount] of [
      ['pay-a', 500],
      ['pay-b', 1_200],
      ['pay-a', 300],
    ] as const) {
      await v1.append([
        { streamId: stream, expectedVersion: 'any', events: [PaidV1.create({ amount })] },
      ]);
    }
    await liveRun(t.db, paymentsV1);
    // Version 2 deployed: new events are v2, the live projector reads v1 ones upcast.
    const v2 = new EventStore(t.db, buildCatalogue([paymentsV2]));
    await v2.append([
      {
        streamId: 'pay-b',
        expectedVersion: 'any',
        events: [PaidV2.create({ amount: { value: 50, currency: 'XOF' } })],
      },
    ]);
    await liveRun(t.db, paymentsV2);
    const live = await totals(t.db);
    expect(live).toEqual([
      { stream_id: 'pay-a', total: 800, n: 2 },
      { stream_id: 'pay-b', total: 1250, n: 2 },
    ]);

    const lines: string[] = [];
    const print = (l: string) => lines.push(l);
    const opts = { names: ['upcast-totals'], modules: [paymentsV2], print };
    expect(await runLedgerCheck(t.db, opts)).toBe(0);
    expect(lines).toEqual([expect.stringMatching(/^upcast-totals: OK at position \d+$/)]);
    expect(await runLedgerRebuild(t.db, opts)).toBe(0);
    expect(await totals(t.db)).toEqual(live);
    expect(await runLedgerCheck(t.db, opts)).toBe(0);
  });
});
