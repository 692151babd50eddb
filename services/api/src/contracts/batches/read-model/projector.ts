import type { Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import { contractsPush } from '../../pushes.js';
import type { ParentContractCreatedData } from '../domain/events.js';
import type { BatchesTables } from '../tables.js';

/**
 * `contract_parents` from `ParentContractCreated` (the subs are the core's rows), then
 * `contracts.updated` (without data) to each new parent's aggregator. The sub-contracts page
 * reads the parent here and its sub-contracts from the contracts projection: the two commit
 * in either order, each pushes after its own commit, so a page that read between them reads
 * again (the parent first read missing answered 404 for good, no push following).
 */
export const contractParentsProjector: Projector = {
  name: 'contract-parents',
  eventTypes: ['ParentContractCreated'],
  tables: ['contract_parents'],
  async apply(transaction, events: RecordedEvent[], ctx) {
    const trx = transaction as unknown as Kysely<BatchesTables>;
    const aggregators = new Set<string>();
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
      aggregators.add(d.aggregatorUserId);
    }
    if (aggregators.size) {
      ctx.push(contractsPush({ type: 'contracts.updated', userIds: [...aggregators] }));
    }
  },
};
