import { sql, type Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import type { ContractEventData } from '../../domain/index.js';
import type { AdvancesTables } from '../tables.js';

/** `grower_debt_recoveries` from `DebtRecovered`: what each contract recovered of a debt. */
export const debtRecoveriesProjector: Projector = {
  name: 'grower-debt-recoveries',
  eventTypes: ['DebtRecovered'],
  tables: ['grower_debt_recoveries'],
  async apply(transaction, events: RecordedEvent[]) {
    const trx = transaction as unknown as Kysely<AdvancesTables>;
    for (const recorded of events) {
      if (recorded.type !== 'DebtRecovered') continue;
      const d = recorded.data as ContractEventData<'DebtRecovered'>;
      await trx
        .insertInto('grower_debt_recoveries')
        .values({
          debt_id: d.debtId,
          contract_id: d.contractId,
          amount: d.amount,
          recovered_at: d.recoveredAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['debt_id', 'contract_id'])
            .doUpdateSet({ amount: sql`grower_debt_recoveries.amount + excluded.amount` }),
        )
        .execute();
    }
  },
};
