import { sql, type Kysely } from 'kysely';
import type { Projector, PushMessage, RecordedEvent } from '@filiere/projections';
import type { ContractEvent, ContractEventType } from '../domain/index.js';
import type { ContractsTables } from '../tables.js';
import { contractsPush } from '../pushes.js';

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
  async apply(transaction, events: RecordedEvent[], ctx) {
    const trx = transaction as unknown as Kysely<ContractsTables>;
    const changed = new Set<string>();
    for (const recorded of events) {
      if (recorded.type.startsWith('Delivery')) {
        changed.add((recorded.data as { contractId: string }).contractId);
      }
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
    await pushChanges(trx, changed, ctx.push);
  },
};

/**
 * `contracts.updated` {contractId, status} to each changed contract's aggregator and grower;
 * a large batch (a replay, a big run) sends one push per user without data instead.
 */
async function pushChanges(
  trx: Kysely<ContractsTables>,
  changed: Set<string>,
  push: (msg: PushMessage) => void,
): Promise<void> {
  if (changed.size === 0) return;
  const ids = [...changed];
  const rows: { id: string; status: string; aggregator_user_id: string; grower_user_id: string }[] =
    [];
  for (let from = 0; from < ids.length; from += 5_000) {
    rows.push(
      ...(await trx
        .selectFrom('delivery_contracts')
        .select(['id', 'status', 'aggregator_user_id', 'grower_user_id'])
        .where('id', 'in', ids.slice(from, from + 5_000))
        .execute()),
    );
  }
  if (rows.length <= 100) {
    for (const r of rows) {
      push(
        contractsPush({
          type: 'contracts.updated',
          userIds: [r.aggregator_user_id, r.grower_user_id],
          data: { contractId: r.id, status: r.status },
        }),
      );
    }
    return;
  }
  const users = [...new Set(rows.flatMap((r) => [r.aggregator_user_id, r.grower_user_id]))];
  push(contractsPush({ type: 'contracts.updated', userIds: users }));
}
