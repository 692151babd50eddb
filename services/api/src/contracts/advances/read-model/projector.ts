import { sql, type Kysely } from 'kysely';
import {
  type Projector,
  type RecordedEvent,
  bigints,
  column,
  instants,
  texts,
} from '@filiere/projections';
import type { ContractEventData } from '../../domain/index.js';
import type { AdvancesTables } from '../tables.js';

interface Row {
  debt_id: string;
  contract_id: string;
  amount: number;
  recovered_at: string;
}

/**
 * `grower_debt_recoveries` from `DebtRecovered`: what each contract recovered of a debt.
 * A batch's recoveries are summed per (debt, contract) and written in one insert of one array
 * per column (`unnest`, whatever the number of rows; a run of 10,000 contracts brings thousands
 * of them at once): a row is the sum of its recoveries (additions commute) and keeps the instant
 * of its first one, as one insert per event left it, whatever the batching of a replay.
 */
export const debtRecoveriesProjector: Projector = {
  name: 'grower-debt-recoveries',
  eventTypes: ['DebtRecovered'],
  tables: ['grower_debt_recoveries'],
  async apply(transaction, events: RecordedEvent[]) {
    const trx = transaction as unknown as Kysely<AdvancesTables>;
    const rows = new Map<string, Row>();
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
    if (!rows.size) return;
    const all = [...rows.values()];
    await trx
      .insertInto('grower_debt_recoveries')
      .columns(['debt_id', 'contract_id', 'amount', 'recovered_at'])
      .expression(
        sql`select * from unnest(${sql.join([
          texts(column(all, 'debt_id')),
          texts(column(all, 'contract_id')),
          bigints(column(all, 'amount')),
          instants(column(all, 'recovered_at')),
        ])})`,
      )
      .onConflict((oc) =>
        oc
          .columns(['debt_id', 'contract_id'])
          .doUpdateSet({ amount: sql`grower_debt_recoveries.amount + excluded.amount` }),
      )
      .execute();
  },
};
