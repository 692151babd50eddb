import { sql } from 'kysely';
import { transactionEffects, type TransactionRow, type WalletEvent } from '../domain/index.js';
import { defineProjector, instantArray, intArray, textArray } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, beninMonth, defined } from './events.js';
import type { OwnersTables } from './events.js';
import { holdCode } from './hold-code.js';
import { movementReference } from './movement-reference.js';

const OWNERS = 'wallet_transaction_owners';

/** The payment means an event names, when it names one. */
function meansOf(event: WalletEvent): string | null {
  switch (event.type) {
    case 'SupplyCredited':
    case 'WithdrawalRefunded':
    case 'WithdrawalDebited':
      return event.data.method;
    default:
      return null;
  }
}

/** The payout destination a withdrawal names. */
const payoutOf = (event: WalletEvent): string | null =>
  event.type === 'WithdrawalDebited' ? event.data.destination : null;

/** `withdrawal.settled`'s payload: which withdrawal ended, and how (paid, or refunded). */
interface WithdrawalSettled {
  walletId: string;
  withdrawalId: string;
  amount: number;
  status: 'SUCCESS' | 'FAILED';
}

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

/** A row this batch creates, before its owners and hold label are known. */
interface Create {
  row: TransactionRow;
  event: WalletEvent;
  position: number;
  at: Date;
  holdId: string | undefined;
  means: string | null;
  payout: string | null;
}

/** Rows created per wallet and month (Benin time). */
interface MonthCount {
  walletId: string;
  year: number;
  month: number;
  count: number;
}

/** The owners' and hold labels' rows a batch needs, in one statement. */
type Lookup = { kind: 'o' | 'l'; id: string; value: string };

/**
 * `wallet_transactions`: one row per wallet and movement, as `transactionEffects` says
 * (id = the position of the event that created it, so ids are stable across rebuilds),
 * with source/destination wallet and user ids (names are joined at query time);
 * `wallet_monthly_counts`: rows created per wallet, year and month (Benin time).
 *
 * Two statements a batch whatever its size: one read (the owners of the wallets it names, the
 * stored labels of holds placed in earlier batches) and one write whose CTEs record the
 * batch's owners and labels, insert its rows and add its monthly counts while the statement
 * itself applies the status changes to rows of earlier batches. Every table is written through
 * the query builder (the rebuild's schema), its rows spread by `unnest` from one array
 * literal per column. A status change of a row created in the same batch is folded into that
 * row before the insert (the update cannot see rows its own statement inserts), which leaves
 * the row as an update after the insert did.
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
    // The batch's WalletOpened, in order: a stored owner wins, then the batch's first (as
    // `on conflict do nothing` keeps them).
    const openedWallets: string[] = [];
    const openedUsers: string[] = [];
    const opened = new Map<string, string>();
    // A hold's rows show its code (the contract's reference ending its purpose: 'LIV-…') as
    // their reference, not its id: the codes of this batch's HoldPlaced (the last one of a
    // hold), else those stored by earlier batches. A hold without a code keeps its id.
    const labels = new Map<string, string>();
    const creates: Create[] = [];
    const changes: { key: string; status: string; at: Date; walletId: string | null }[] = [];
    const settled: WithdrawalSettled[] = [];
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      switch (event.type) {
        case 'WalletOpened':
          openedWallets.push(event.data.walletId);
          openedUsers.push(event.data.ownerUserId);
          if (!opened.has(event.data.walletId)) {
            opened.set(event.data.walletId, event.data.ownerUserId);
          }
          continue;
        case 'HoldPlaced': {
          const code = holdCode(event.data.purpose);
          if (code) labels.set(event.data.holdId, code);
          continue;
        }
        case 'WithdrawalCompleted':
        case 'WithdrawalFailed':
          settled.push({
            walletId: event.data.walletId,
            withdrawalId: event.data.withdrawalId,
            amount: event.data.amount,
            status: event.type === 'WithdrawalCompleted' ? 'SUCCESS' : 'FAILED',
          });
          break;
      }
      for (const effect of transactionEffects(event)) {
        if (effect.kind === 'create') {
          creates.push({
            row: effect,
            event,
            position: recorded.position,
            at: recorded.recordedAt,
            holdId: holdOf(event),
            means: meansOf(event),
            payout: payoutOf(event),
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
    // Owners of every wallet a row or a change names; stored labels of the holds this
    // batch's rows pay that no HoldPlaced of the batch labelled.
    const walletIds = new Set<string>();
    const unlabelled = new Set<string>();
    for (const c of creates) {
      walletIds.add(c.row.walletId);
      if (c.row.counterpartyWalletId !== null) walletIds.add(c.row.counterpartyWalletId);
      if (c.holdId !== undefined && !labels.has(c.holdId)) unlabelled.add(c.holdId);
    }
    for (const c of changes) if (c.walletId !== null) walletIds.add(c.walletId);
    const owners = new Map<string, string>();
    if (walletIds.size) {
      const found: Lookup[] = await trx
        .selectFrom(OWNERS)
        .select([sql<Lookup['kind']>`'o'`.as('kind'), 'wallet_id as id', 'user_id as value'])
        .where('wallet_id', '=', sql<string>`any(${textArray([...walletIds])}::text[])`)
        .unionAll(
          trx
            .selectFrom(HOLD_LABELS)
            .select([sql<Lookup['kind']>`'l'`.as('kind'), 'hold_id as id', 'label as value'])
            .where('hold_id', '=', sql<string>`any(${textArray([...unlabelled])}::text[])`),
        )
        .execute();
      for (const r of found) (r.kind === 'o' ? owners : labels).set(r.id, r.value);
      for (const [walletId, userId] of opened)
        if (!owners.has(walletId)) owners.set(walletId, userId);
    }
    const owner = (walletId: string | null) => (walletId ? (owners.get(walletId) ?? null) : null);

    // Each key's last change in the batch, as one update per change in the events' order left
    // it (every change sets the same two columns): folded into a row of this batch, or applied
    // to a row of an earlier one by the write's update.
    const lastChange = new Map<string, { status: string; at: Date }>();
    for (const change of changes) lastChange.set(change.key, change);

    if (openedWallets.length || labels.size || creates.length || lastChange.size) {
      const n = creates.length;
      const col = {
        id: new Array<number>(n),
        key: new Array<string>(n),
        walletId: new Array<string>(n),
        userId: new Array<string | null>(n),
        reference: new Array<string>(n),
        operationType: new Array<string>(n),
        direction: new Array<string>(n),
        amount: new Array<number>(n),
        status: new Array<string>(n),
        reason: new Array<string | null>(n),
        source: new Array<string | null>(n),
        destination: new Array<string | null>(n),
        sourceUser: new Array<string | null>(n),
        destinationUser: new Array<string | null>(n),
        means: new Array<string | null>(n),
        payout: new Array<string | null>(n),
        createdAt: new Array<Date>(n),
        updatedAt: new Array<Date>(n),
      };
      // Rows per wallet and Benin month: nearly every row of a batch shares its month, and
      // rows of one event or one group commit their instant.
      const months = new Map<string, Map<number, MonthCount>>();
      const monthRows: MonthCount[] = [];
      let lastTime = NaN;
      let yearMonth = 0;
      const folds = lastChange.size > 0;
      for (let i = 0; i < n; i++) {
        const { row, event, position, at, holdId, means, payout } = creates[i]!;
        const out = row.direction === 'OUT';
        const source = out ? row.walletId : row.counterpartyWalletId;
        const destination = out ? row.counterpartyWalletId : row.walletId;
        const change = folds ? lastChange.get(row.key) : undefined;
        if (change) lastChange.delete(row.key);
        col.id[i] = position;
        col.key[i] = row.key;
        col.walletId[i] = row.walletId;
        col.userId[i] = owner(row.walletId);
        col.reference[i] =
          movementReference(event, holdId === undefined ? undefined : labels.get(holdId)) ??
          row.reference;
        col.operationType[i] = row.operationType;
        col.direction[i] = row.direction;
        col.amount[i] = row.amount;
        col.status[i] = change ? change.status : row.status;
        col.reason[i] = row.reason;
        col.source[i] = source;
        col.destination[i] = destination;
        col.sourceUser[i] = owner(source);
        col.destinationUser[i] = owner(destination);
        col.means[i] = means;
        col.payout[i] = payout;
        col.createdAt[i] = at;
        col.updatedAt[i] = change ? change.at : at;
        const time = at.getTime();
        if (time !== lastTime) {
          lastTime = time;
          const { year, month } = beninMonth(at);
          yearMonth = year * 100 + month;
        }
        let byMonth = months.get(row.walletId);
        if (!byMonth) months.set(row.walletId, (byMonth = new Map()));
        const m = byMonth.get(yearMonth);
        if (m) m.count += 1;
        else {
          const first: MonthCount = {
            walletId: row.walletId,
            year: Math.floor(yearMonth / 100),
            month: yearMonth % 100,
            count: 1,
          };
          byMonth.set(yearMonth, first);
          monthRows.push(first);
        }
      }
      const changed = [...lastChange];
      const values = sql<{ key: string; status: string; updated_at: Date }>`(select * from unnest(
          ${textArray(changed.map(([key]) => key))}::text[],
          ${textArray(changed.map(([, c]) => c.status))}::text[],
          ${instantArray(changed.map(([, c]) => c.at))}::timestamptz[]
        ) as t(key, status, updated_at))`;
      await trx
        .with('o', (db) =>
          db
            .insertInto(OWNERS)
            .columns(['wallet_id', 'user_id'])
            .expression(
              sql<never>`select * from unnest(${textArray(openedWallets)}::text[],
                ${textArray(openedUsers)}::text[])`,
            )
            .onConflict((oc) => oc.column('wallet_id').doNothing()),
        )
        .with('l', (db) =>
          db
            .insertInto(HOLD_LABELS)
            .columns(['hold_id', 'label'])
            .expression(
              sql<never>`select * from unnest(${textArray([...labels.keys()])}::text[],
                ${textArray([...labels.values()])}::text[])`,
            )
            .onConflict((oc) => oc.column('hold_id').doNothing()),
        )
        .with('t', (db) =>
          db
            .insertInto('wallet_transactions')
            .columns([
              'id',
              'key',
              'wallet_id',
              'user_id',
              'reference',
              'operation_type',
              'direction',
              'amount',
              'status',
              'reason',
              'source_wallet_id',
              'destination_wallet_id',
              'source_user_id',
              'destination_user_id',
              'payment_means',
              'destination',
              'created_at',
              'updated_at',
            ])
            .expression(
              sql<never>`select * from unnest(${intArray(col.id)}::bigint[],
                ${textArray(col.key)}::text[], ${textArray(col.walletId)}::text[],
                ${textArray(col.userId)}::text[], ${textArray(col.reference)}::text[],
                ${textArray(col.operationType)}::text[], ${textArray(col.direction)}::text[],
                ${intArray(col.amount)}::bigint[], ${textArray(col.status)}::text[],
                ${textArray(col.reason)}::text[], ${textArray(col.source)}::text[],
                ${textArray(col.destination)}::text[], ${textArray(col.sourceUser)}::text[],
                ${textArray(col.destinationUser)}::text[], ${textArray(col.means)}::text[],
                ${textArray(col.payout)}::text[], ${instantArray(col.createdAt)}::timestamptz[],
                ${instantArray(col.updatedAt)}::timestamptz[])`,
            ),
        )
        .with('m', (db) =>
          db
            .insertInto('wallet_monthly_counts')
            .columns(['wallet_id', 'year', 'month', 'count'])
            .expression(
              sql<never>`select * from unnest(
                ${textArray(monthRows.map((m) => m.walletId))}::text[],
                ${intArray(monthRows.map((m) => m.year))}::integer[],
                ${intArray(monthRows.map((m) => m.month))}::integer[],
                ${intArray(monthRows.map((m) => m.count))}::integer[])`,
            )
            .onConflict((oc) =>
              oc.columns(['wallet_id', 'year', 'month']).doUpdateSet({
                count: sql`${sql.ref('wallet_monthly_counts.count')} + excluded.count`,
              }),
            ),
        )
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
