import type { Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import { contractsPush } from '../../pushes.js';
import type {
  CarriageCanceledData,
  CarriageCreatedData,
  CarriagePaidData,
} from '../domain/carriage.js';
import type { CarriageTables } from '../tables.js';

/**
 * `carriage_contracts` from the `carriage-<id>` streams; each change pushes
 * `contracts.updated` {contractId, status} to the aggregator and the carrier.
 */
export const carriageContractsProjector: Projector = {
  name: 'carriage-contracts',
  eventTypes: ['CarriageContractCreated', 'CarriageContractCanceled', 'CarriageContractPaid'],
  tables: ['carriage_contracts'],
  async apply(transaction, events: RecordedEvent[], ctx) {
    const trx = transaction as unknown as Kysely<CarriageTables>;
    const changed = new Set<string>();
    for (const recorded of events) {
      if (recorded.type === 'CarriageContractCreated') {
        const d = recorded.data as CarriageCreatedData;
        changed.add(d.contractId);
        await trx
          .insertInto('carriage_contracts')
          .values({
            id: d.contractId,
            reference: d.reference,
            status: 'CREATED',
            aggregator_user_id: d.aggregatorUserId,
            carrier_id: d.carrierId,
            carrier_user_id: d.carrierUserId,
            vehicle_id: d.vehicleId,
            car_type: d.carType,
            registration: d.registration,
            transport_date: d.transportDate,
            amount: d.amount,
            description: d.description,
            hold_id: d.holdId,
            created_at: d.createdAt,
            updated_at: d.createdAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      } else if (recorded.type === 'CarriageContractCanceled') {
        const d = recorded.data as CarriageCanceledData;
        changed.add(d.contractId);
        await trx
          .updateTable('carriage_contracts')
          .set({ status: 'CANCELED', updated_at: d.canceledAt })
          .where('id', '=', d.contractId)
          .execute();
      } else if (recorded.type === 'CarriageContractPaid') {
        const d = recorded.data as CarriagePaidData;
        changed.add(d.contractId);
        await trx
          .updateTable('carriage_contracts')
          .set({ status: 'PAID', updated_at: d.paidAt })
          .where('id', '=', d.contractId)
          .execute();
      }
    }
    if (changed.size === 0 || changed.size > 100) return;
    const rows = await trx
      .selectFrom('carriage_contracts')
      .select(['id', 'status', 'aggregator_user_id', 'carrier_user_id'])
      .where('id', 'in', [...changed])
      .execute();
    for (const r of rows) {
      ctx.push(
        contractsPush({
          type: 'contracts.updated',
          userIds: [r.aggregator_user_id, r.carrier_user_id],
          data: { contractId: r.id, status: r.status },
        }),
      );
    }
  },
};
