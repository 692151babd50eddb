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
    /** Debts opened or recovered: their creditors' advance lists show them. */
    const debts = new Set<string>();
    // A run's settlements and their debt recoveries come in long runs of these two types (a
    // run of 10,000 contracts: 10,000 DeliveryContractSettled and their DebtRecovered): they
    // are written in one statement per run of consecutive events instead of one per event.
    // Any other event (or a contract settled twice in one run) writes them first, so each row
    // still sees its events in the log's order; recoveries of one debt add up (sums commute).
    const settled = new Map<string, SettledRow>();
    const recovered = new Map<string, number>();
    const flush = async () => {
      await writeSettled(trx, settled);
      await writeRecovered(trx, recovered);
    };
    for (const recorded of events) {
      if (recorded.type === 'DeliveryContractSettled') {
        const d = recorded.data as SettledData;
        if (settled.has(d.contractId)) await flush();
        settled.set(d.contractId, {
          delivered_amount: d.payableAmount,
          recovered_amount: d.recoveries.reduce((sum, r) => sum + r.amount, 0),
          grower_net: d.growerNet,
          updated_at: recorded.recordedAt,
        });
        changed.add(d.contractId);
        continue;
      }
      if (recorded.type === 'DebtRecovered') {
        const d = recorded.data as { debtId: string; amount: number };
        recovered.set(d.debtId, (recovered.get(d.debtId) ?? 0) + d.amount);
        debts.add(d.debtId);
        continue;
      }
      await flush();
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
          debts.add(d.debtId);
          break;
        }
      }
    }
    await flush();
    await pushChanges(trx, changed, debts, ctx.push);
  },
};

type SettledData = Extract<ContractEvent, { type: 'DeliveryContractSettled' }>['data'];

interface SettledRow {
  delivered_amount: number;
  recovered_amount: number;
  grower_net: number;
  updated_at: Date;
}

const instant = (at: Date | string): string => (at instanceof Date ? at.toISOString() : at);

/*
 * The two writes below go through the query builder, tables included: a rebuild or a check
 * hands the projector a Kysely bound to a scratch schema, which rebinds the builder's table
 * references only. A raw `update delivery_contracts …` (the first batching, e5bd7ed) wrote
 * the LIVE tables during ledger:check — the bank test found a debt recovered twice in
 * `public` and the scratch copy never settled. The unnest below names no table.
 */

/** The settled contracts' rows, COMPLETED in one statement; empties `rows`. */
async function writeSettled(
  trx: Kysely<ContractsTables>,
  rows: Map<string, SettledRow>,
): Promise<void> {
  if (rows.size === 0) return;
  const list = [...rows];
  rows.clear();
  const values = sql<{
    id: string;
    delivered_amount: number;
    recovered_amount: number;
    grower_net: number;
    updated_at: Date;
  }>`(select * from unnest(
      ${list.map(([id]) => id)}::text[],
      ${list.map(([, r]) => r.delivered_amount)}::bigint[],
      ${list.map(([, r]) => r.recovered_amount)}::bigint[],
      ${list.map(([, r]) => r.grower_net)}::bigint[],
      ${list.map(([, r]) => instant(r.updated_at))}::timestamptz[]
    ) as t(id, delivered_amount, recovered_amount, grower_net, updated_at))`;
  await trx
    .updateTable('delivery_contracts')
    .from(values.as('v'))
    .set((eb) => ({
      status: 'COMPLETED',
      delivered_amount: eb.ref('v.delivered_amount'),
      recovered_amount: eb.ref('v.recovered_amount'),
      grower_net: eb.ref('v.grower_net'),
      updated_at: eb.ref('v.updated_at'),
    }))
    .whereRef('delivery_contracts.id', '=', 'v.id')
    .execute();
}

/** What the debts recovered (summed per debt), in one statement; empties `amounts`. */
async function writeRecovered(
  trx: Kysely<ContractsTables>,
  amounts: Map<string, number>,
): Promise<void> {
  if (amounts.size === 0) return;
  const list = [...amounts];
  amounts.clear();
  const values = sql<{ id: string; amount: number }>`(select * from unnest(
      ${list.map(([id]) => id)}::text[], ${list.map(([, a]) => a)}::bigint[]
    ) as t(id, amount))`;
  await trx
    .updateTable('grower_debts')
    .from(values.as('v'))
    .set((eb) => ({ recovered: eb(eb.ref('grower_debts.recovered'), '+', eb.ref('v.amount')) }))
    .whereRef('grower_debts.id', '=', 'v.id')
    .execute();
}

/**
 * `contracts.updated` {contractId, status} to each changed contract's aggregator and grower;
 * a large batch (a replay, a big run) sends one push per user without data instead. The
 * creditors of the debts opened or recovered (an advance's 'recovered' and 'remaining', its
 * list's open/repaid filter) get one push without data.
 */
async function pushChanges(
  trx: Kysely<ContractsTables>,
  changed: Set<string>,
  debts: Set<string>,
  push: (msg: PushMessage) => void,
): Promise<void> {
  const creditors = await creditorsOf(trx, debts);
  if (creditors.length) push(contractsPush({ type: 'contracts.updated', userIds: creditors }));
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

/** The distinct creditors of `debts` (rows of this transaction: opened in it or before). */
async function creditorsOf(trx: Kysely<ContractsTables>, debts: Set<string>): Promise<string[]> {
  const ids = [...debts];
  const creditors = new Set<string>();
  for (let from = 0; from < ids.length; from += 5_000) {
    const rows = await trx
      .selectFrom('grower_debts')
      .select('creditor_user_id')
      .distinct()
      .where('id', 'in', ids.slice(from, from + 5_000))
      .execute();
    for (const r of rows) creditors.add(r.creditor_user_id);
  }
  return [...creditors];
}
