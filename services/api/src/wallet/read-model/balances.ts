import { sql } from 'kysely';
import { transactionEffects, walletAccount } from '../domain/index.js';
import { defineProjector, instantArray, intArray, textArray } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, defined, walletIdOfStream } from './events.js';
import { negate, plus, type Exact } from './exact.js';

/** A wallet's movements in the batch: exact sums (a batch of large events passes 2^53). */
interface Delta {
  walletId: string;
  /** `wallet:<id>`, the account its postings name. */
  account: string;
  owner: string | null;
  balance: Exact;
  held: Exact;
  lastAmount: number | null;
  lastDate: Date | null;
}

const ref = (column: string) => sql.ref(`wallet_balances.${column}`);

type BalanceTables = Pick<WalletReadTables, 'wallet_balances'>;

/**
 * `wallet_balances`: balance, held, availableBalance (= balance − active holds) and the
 * last transaction of each wallet — the same fold as the wallet stream's `evolve`
 * (postings to `wallet:<id>`, or the amount of a `…Received` event).
 */
export const balancesProjector = defineProjector<BalanceTables>({
  name: 'wallet-balances',
  eventTypes: [
    'WalletOpened',
    'SupplyCredited',
    'TransferSent',
    'TransferReceived',
    'FinancingSent',
    'FinancingReceived',
    'WithdrawalDebited',
    'WithdrawalRefunded',
    'HoldPlaced',
    'HoldReleased',
    'HoldCaptured',
    'HoldPaymentReceived',
    'HoldSettlementPaid',
    'HoldSettled',
    'HoldSettlementReceived',
  ],
  tables: ['wallet_balances'],
  async apply(trx, events, ctx) {
    const deltas = new Map<string, Delta>();
    for (const recorded of events) {
      const walletId = walletIdOfStream(recorded.streamId);
      if (!walletId) continue;
      const event = asWalletEvent(recorded);
      let d = deltas.get(walletId);
      if (!d) {
        d = {
          walletId,
          account: walletAccount(walletId),
          owner: null,
          balance: 0,
          held: 0,
          lastAmount: null,
          lastDate: null,
        };
        deltas.set(walletId, d);
      }
      if (event.type === 'WalletOpened') d.owner = event.data.ownerUserId;
      else if ('postings' in event.data) {
        for (const p of event.data.postings) {
          if (p.account === d.account) d.balance = plus(d.balance, p.amount);
        }
      } else if (
        event.type === 'TransferReceived' ||
        event.type === 'FinancingReceived' ||
        event.type === 'HoldPaymentReceived' ||
        event.type === 'HoldSettlementReceived'
      ) {
        d.balance = plus(d.balance, event.data.amount);
      }
      if (event.type === 'HoldPlaced') d.held = plus(d.held, event.data.amount);
      if (event.type === 'HoldReleased' || event.type === 'HoldCaptured') {
        d.held = plus(d.held, -event.data.amount);
      }
      if (event.type === 'HoldSettled') {
        d.held = plus(d.held, negate(plus(event.data.captured, event.data.released)));
      }
      for (const effect of transactionEffects(event)) {
        if (effect.kind === 'create' && effect.walletId === walletId) {
          d.lastAmount = effect.amount;
          d.lastDate = recorded.recordedAt;
        }
      }
    }
    if (!deltas.size) return;
    const rows = [...deltas.values()];
    // One statement of one shape whatever the batch: one array literal per column, spread by
    // `unnest` (a multi-row VALUES had 7 parameters a row). As decimal text: exact whatever the
    // size (PostgreSQL adds them as bigint).
    const touched = await trx
      .insertInto('wallet_balances')
      .columns([
        'wallet_id',
        'owner_user_id',
        'balance',
        'held',
        'available_balance',
        'last_transaction_amount',
        'last_transaction_date',
      ])
      .expression(
        sql<never>`select * from unnest(${textArray(rows.map((d) => d.walletId))}::text[],
          ${textArray(rows.map((d) => d.owner))}::text[],
          ${intArray(rows.map((d) => d.balance))}::bigint[],
          ${intArray(rows.map((d) => d.held))}::bigint[],
          ${intArray(rows.map((d) => plus(d.balance, negate(d.held))))}::bigint[],
          ${intArray(rows.map((d) => d.lastAmount))}::bigint[],
          ${instantArray(rows.map((d) => d.lastDate))}::timestamptz[])`,
      )
      .onConflict((oc) =>
        oc.column('wallet_id').doUpdateSet({
          owner_user_id: sql`coalesce(${ref('owner_user_id')}, excluded.owner_user_id)`,
          balance: sql`${ref('balance')} + excluded.balance`,
          held: sql`${ref('held')} + excluded.held`,
          available_balance: sql`${ref('available_balance')} + excluded.available_balance`,
          last_transaction_amount: sql`coalesce(excluded.last_transaction_amount, ${ref('last_transaction_amount')})`,
          last_transaction_date: sql`coalesce(excluded.last_transaction_date, ${ref('last_transaction_date')})`,
        }),
      )
      .returning('owner_user_id')
      .execute();
    const userIds = defined(touched.map((r) => r.owner_user_id));
    if (userIds.length) ctx.push(walletPush({ type: 'wallet.updated', userIds }));
  },
});
