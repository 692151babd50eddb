import { sql, type Insertable, type Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import type { ContractEventData } from '../../domain/index.js';
import type { AdvancesTables } from '../tables.js';

/** Rows per insert: 5,000 × 4 columns stays well under PostgreSQL's 65,535 bind parameters. */
const INSERT_SLICE = 5_000;

/**
 * `grower_debt_recoveries` from `DebtRecovered`: what each contract recovered of a debt.
 * A batch's recoveries are summed per (debt, contract) and written in one insert (a run of
 * 10,000 contracts brings thousands of them at once; one insert per event cost a statement
 * each): a row is the sum of its recoveries (additions commute) and keeps the instant of its
 * first one, as one insert per event left it, whatever the batching of a replay.
 */
export const debtRecoveriesProjector: Projector = {
  name: 'grower-debt-recoveries',
  eventTypes: ['DebtRecovered'],
  tables: ['grower_debt_recoveries'],
  async apply(transaction, events: RecordedEvent[]) {
    const trx = transaction as unknown as Kysely<AdvancesTables>;
    const rows = new Map<string, Insertable<AdvancesTables['grower_debt_recoveries']>>();
    for (const recorded of events) {
      if (recorded.type !== 'DebtRecovered') continue;
      const d = recorded.data as ContractEventData<'DebtRecovered'>;
      const key = `${d.debtId}\u0000${d.contractId}`;
      const row = rows.get(key);
      if (row) row.amount += d.amount;
      else {
        rows.set(key, {
          debt_id: d.debtId,
          contract_id: d.contractId,
          amount: d.amount,
          recovered_at: d.recoveredAt,
        });
      }
    }
    const all = [...rows.values()];
    for (let from = 0; from < all.length; from += INSERT_SLICE) {
      await trx
        .insertInto('grower_debt_recoveries')
        .values(all.slice(from, from + INSERT_SLICE))
        .onConflict((oc) =>
          oc
            .columns(['debt_id', 'contract_id'])
            .doUpdateSet({ amount: sql`grower_debt_recoveries.amount + excluded.amount` }),
        )
        .execute();
    }
  },
};
