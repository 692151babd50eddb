import type { Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import type { ParentContractCreatedData } from '../domain/events.js';
import type { BatchesTables } from '../tables.js';

/** `contract_parents` from `ParentContractCreated` (the subs are the core's rows). */
export const contractParentsProjector: Projector = {
  name: 'contract-parents',
  eventTypes: ['ParentContractCreated'],
  tables: ['contract_parents'],
  async apply(transaction, events: RecordedEvent[]) {
    const trx = transaction as unknown as Kysely<BatchesTables>;
    for (const recorded of events) {
      if (recorded.type !== 'ParentContractCreated') continue;
      const d = recorded.data as ParentContractCreatedData;
      await trx
        .insertInto('contract_parents')
        .values({
          id: d.parentId,
          reference: d.reference,
          aggregator_user_id: d.aggregatorUserId,
          source: d.source,
          file_name: d.fileName,
          sub_count: d.subCount,
          total_kg: d.totalKg,
          total_amount: d.totalAmount,
          created_at: d.createdAt,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  },
};
