import { sql, type Kysely } from 'kysely';
import type { Projector, RecordedEvent } from '@filiere/projections';
import type { ContractEvent, ContractEventType } from '../domain/index.js';
import type { ContractsTables } from '../tables.js';

const EVENT_TYPES: ContractEventType[] = [
  'DeliveryContractCreated',
  'DeliveryContractConfirmed',
  'DeliveryRecorded',
  'DeliveryContractOutOfTime',
  'DeliveryContractCanceled',
  'DeliveryContractSettled',
  'DebtOpened',
  'DebtRecovered',
];

/**
 * `delivery_contracts` and `grower_debts` from the `contract-<id>` and `debt-<id>` streams.
 * Each event updates its row; times come from the events (`recordedAt`), so a replay
 * (ledger:rebuild/check) gives the same rows.
 */
export const contractsProjector: Projector = {
  name: 'contracts',
  eventTypes: EVENT_TYPES,
  tables: ['delivery_contracts', 'grower_debts'],
  async apply(transaction, events: RecordedEvent[]) {
    const trx = transaction as unknown as Kysely<ContractsTables>;
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as ContractEvent;
      const at = recorded.recordedAt;
      const contractRow = (contractId: string) =>
        trx.updateTable('delivery_contracts').where('id', '=', contractId);
      switch (event.type) {
        case 'DeliveryContractCreated': {
          const d = event.data;
          await trx
            .insertInto('delivery_contracts')
            .values({
              id: d.contractId,
              reference: d.reference,
              parent_id: d.parentId,
              aggregator_user_id: d.aggregatorUserId,
              grower_id: d.growerId,
              grower_user_id: d.growerUserId,
              plot_id: d.plotId,
              product_type: d.productType,
              quantity_kg: d.quantityKg,
              amount: d.amount,
              delivery_date: d.deliveryDate,
              status: 'PENDING',
              created_at: at,
              updated_at: at,
            })
            .execute();
          break;
        }
        case 'DeliveryContractConfirmed':
          await contractRow(event.data.contractId)
            .set({ status: 'CONFIRMED', updated_at: at })
            .execute();
          break;
        case 'DeliveryRecorded':
          await contractRow(event.data.contractId)
            .set({
              status: 'DELIVERED',
              delivered_kg: event.data.deliveredKg,
              delivered_on: event.data.deliveredOn,
              updated_at: at,
            })
            .execute();
          break;
        case 'DeliveryContractOutOfTime':
          await contractRow(event.data.contractId)
            .set({ status: 'OUTTIME', updated_at: at })
            .execute();
          break;
        case 'DeliveryContractCanceled':
          await contractRow(event.data.contractId)
            .set({ status: 'CANCELED', updated_at: at })
            .execute();
          break;
        case 'DeliveryContractSettled': {
          const d = event.data;
          await contractRow(d.contractId)
            .set({
              status: 'COMPLETED',
              delivered_amount: d.payableAmount,
              recovered_amount: d.recoveries.reduce((sum, r) => sum + r.amount, 0),
              grower_net: d.growerNet,
              updated_at: at,
            })
            .execute();
          break;
        }
        case 'DebtOpened': {
          const d = event.data;
          await trx
            .insertInto('grower_debts')
            .values({
              id: d.debtId,
              kind: d.kind,
              creditor_user_id: d.creditorUserId,
              debtor_grower_id: d.debtorGrowerId,
              principal: d.principal,
              opened_at: d.openedAt,
            })
            .execute();
          break;
        }
        case 'DebtRecovered':
          await trx
            .updateTable('grower_debts')
            .set({ recovered: sql`recovered + ${event.data.amount}` })
            .where('id', '=', event.data.debtId)
            .execute();
          break;
      }
    }
  },
};
