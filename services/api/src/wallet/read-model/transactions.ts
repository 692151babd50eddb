import { sql } from 'kysely';
import { transactionEffects, type TransactionRow, type WalletEvent } from '../domain/index.js';
import { defineProjector } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, beninMonth, defined, loadOwners, recordOwners } from './events.js';
import type { OwnersTables } from './events.js';
import { holdCode } from './hold-code.js';

const OWNERS = 'wallet_transaction_owners';

/** Payment means and payout destination an event names, when it names one. */
function meansOf(event: WalletEvent): { means: string | null; destination: string | null } {
  switch (event.type) {
    case 'SupplyCredited':
    case 'WithdrawalRefunded':
      return { means: event.data.method, destination: null };
    case 'WithdrawalDebited':
      return { means: event.data.method, destination: event.data.destination };
    default:
      return { means: null, destination: null };
  }
}

/** `withdrawal.settled`'s payload: which withdrawal ended, and how (paid, or refunded). */
interface WithdrawalSettled {
  walletId: string;
  withdrawalId: string;
  amount: number;
  status: 'SUCCESS' | 'FAILED';
}

/** Rows per insert: 2,000 × 18 columns stays under PostgreSQL's 65,535 bind parameters. */
const INSERT_SLICE = 2_000;

type TransactionTables = Pick<
  WalletReadTables,
  'wallet_transactions' | 'wallet_monthly_counts' | 'wallet_hold_labels'
> &
  OwnersTables;

const HOLD_LABELS = 'wallet_hold_labels';

/** The hold a row pays from (its reference is the hold's id), if it is one. */
function holdOf(event: WalletEvent): string | undefined {
  switch (event.type) {
    case 'HoldCaptured':
    case 'HoldPaymentReceived':
    case 'HoldSettlementPaid':
    case 'HoldSettlementReceived':
      return event.data.holdId;
    default:
      return undefined;
  }
}

/**
 * `wallet_transactions`: one row per wallet and movement, as `transactionEffects` says
 * (id = the position of the event that created it, so ids are stable across rebuilds),
 * with source/destination wallet and user ids (names are joined at query time);
 * `wallet_monthly_counts`: rows created per wallet, year and month (Benin time).
 */
export const transactionsProjector = defineProjector<TransactionTables>({
  name: 'wallet-transactions',
  eventTypes: [
    'WalletOpened',
    'SupplyCredited',
    'TransferSent',
    'TransferReceived',
    'FinancingSent',
    'FinancingReceived',
    'WithdrawalDebited',
    'WithdrawalCompleted',
    'WithdrawalFailed',
    'WithdrawalRefunded',
    'HoldPlaced',
    'HoldCaptured',
    'HoldPaymentReceived',
    'HoldSettlementPaid',
    'HoldSettled',
    'HoldSettlementReceived',
  ],
  tables: ['wallet_transactions', OWNERS, 'wallet_monthly_counts', HOLD_LABELS],
  async apply(trx, events, ctx) {
    await recordOwners(trx, OWNERS, events);
    const creates: { row: TransactionRow; event: WalletEvent; position: number; at: Date }[] = [];
    const changes: { key: string; status: string; at: Date; walletId: string | null }[] = [];
    const settled: WithdrawalSettled[] = [];
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      if (event.type === 'WithdrawalCompleted' || event.type === 'WithdrawalFailed') {
        settled.push({
          walletId: event.data.walletId,
          withdrawalId: event.data.withdrawalId,
          amount: event.data.amount,
          status: event.type === 'WithdrawalCompleted' ? 'SUCCESS' : 'FAILED',
        });
      }
      for (const effect of transactionEffects(event)) {
        if (effect.kind === 'create') {
          creates.push({
            row: effect,
            event,
            position: recorded.position,
            at: recorded.recordedAt,
          });
        } else {
          const walletId = 'walletId' in event.data ? (event.data.walletId as string) : null;
          changes.push({
            key: effect.key,
            status: effect.status,
            at: recorded.recordedAt,
            walletId,
          });
        }
      }
    }
    // A hold's rows show its code (the contract's reference ending its purpose: 'LIV-…') as
    // their reference, not its id: the codes of this batch's HoldPlaced, else those stored by
    // earlier batches. A hold without a code (an input assignment) keeps its id.
    const placed = events
      .filter((e) => e.type === 'HoldPlaced')
      .map(asWalletEvent)
      .flatMap((e) => (e.type === 'HoldPlaced' ? [e.data] : []));
    const labels = new Map(
      placed.flatMap((h) => {
        const code = holdCode(h.purpose);
        return code ? [[h.holdId, code] as const] : [];
      }),
    );
    if (labels.size) {
      await trx
        .insertInto(HOLD_LABELS)
        .values([...labels].map(([hold_id, label]) => ({ hold_id, label })))
        .onConflict((oc) => oc.column('hold_id').doNothing())
        .execute();
    }
    const unlabelled = [...new Set(defined(creates.map((c) => holdOf(c.event))))].filter(
      (holdId) => !labels.has(holdId),
    );
    if (unlabelled.length) {
      const stored = await trx
        .selectFrom(HOLD_LABELS)
        .select(['hold_id', 'label'])
        .where('hold_id', 'in', unlabelled)
        .execute();
      for (const r of stored) labels.set(r.hold_id, r.label);
    }
    const referenceOf = (row: TransactionRow, event: WalletEvent) => {
      const holdId = holdOf(event);
      return (holdId && labels.get(holdId)) || row.reference;
    };
    const owners = await loadOwners(trx, OWNERS, [
      ...creates.flatMap((c) => defined([c.row.walletId, c.row.counterpartyWalletId])),
      ...defined(changes.map((c) => c.walletId)),
    ]);
    const owner = (walletId: string | null) => (walletId ? (owners.get(walletId) ?? null) : null);
    // In slices: a replay hands 10,000 events at once, and 18 columns a row passed
    // PostgreSQL's 65,535 bind parameters (ledger:check failed on the bank test's ledger).
    for (let from = 0; from < creates.length; from += INSERT_SLICE) {
      await trx
        .insertInto('wallet_transactions')
        .values(
          creates.slice(from, from + INSERT_SLICE).map(({ row, event, position, at }) => {
            const out = row.direction === 'OUT';
            const source = out ? row.walletId : row.counterpartyWalletId;
            const destination = out ? row.counterpartyWalletId : row.walletId;
            const { means, destination: payout } = meansOf(event);
            return {
              id: position,
              key: row.key,
              wallet_id: row.walletId,
              user_id: owner(row.walletId),
              reference: referenceOf(row, event),
              operation_type: row.operationType,
              direction: row.direction,
              amount: row.amount,
              status: row.status,
              reason: row.reason,
              source_wallet_id: source,
              destination_wallet_id: destination,
              source_user_id: owner(source),
              destination_user_id: owner(destination),
              payment_means: means,
              destination: payout,
              created_at: at,
              updated_at: at,
            };
          }),
        )
        .execute();
    }
    if (creates.length) {
      const months = new Map<
        string,
        { wallet_id: string; year: number; month: number; count: number }
      >();
      for (const { row, at } of creates) {
        const { year, month } = beninMonth(at);
        const k = `${row.walletId}|${year}|${month}`;
        const m = months.get(k) ?? { wallet_id: row.walletId, year, month, count: 0 };
        m.count += 1;
        months.set(k, m);
      }
      await trx
        .insertInto('wallet_monthly_counts')
        .values([...months.values()])
        .onConflict((oc) =>
          oc.columns(['wallet_id', 'year', 'month']).doUpdateSet({
            count: sql`${sql.ref('wallet_monthly_counts.count')} + excluded.count`,
          }),
        )
        .execute();
    }
    // The status changes (a withdrawal paid or failed) in one statement: each row takes the
    // last change of its key in the batch, as one update per change in the events' order left
    // it (every change sets the same two columns). A payout batch brought one update each.
    // Through the query builder, so a replay bound to a scratch schema writes that schema.
    const lastChange = new Map<string, { status: string; at: Date }>();
    for (const change of changes) lastChange.set(change.key, change);
    if (lastChange.size) {
      const list = [...lastChange];
      const values = sql<{ key: string; status: string; updated_at: Date }>`(select * from unnest(
          ${list.map(([key]) => key)}::text[],
          ${list.map(([, c]) => c.status)}::text[],
          ${list.map(([, c]) => new Date(c.at).toISOString())}::timestamptz[]
        ) as t(key, status, updated_at))`;
      await trx
        .updateTable('wallet_transactions')
        .from(values.as('v'))
        .set((eb) => ({ status: eb.ref('v.status'), updated_at: eb.ref('v.updated_at') }))
        .whereRef('wallet_transactions.key', '=', 'v.key')
        .execute();
    }
    const userIds = defined([
      ...creates.map((c) => owner(c.row.walletId)),
      ...changes.map((c) => owner(c.walletId)),
    ]);
    if (userIds.length) ctx.push(walletPush({ type: 'transactions.updated', userIds }));
    // The owner is told how its withdrawal ended (the web's toast), after the row changed.
    for (const { walletId, ...data } of settled) {
      const userId = owner(walletId);
      if (userId) ctx.push(walletPush({ type: 'withdrawal.settled', userIds: [userId], data }));
    }
  },
});
