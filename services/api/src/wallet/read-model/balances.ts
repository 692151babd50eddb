import { sql } from 'kysely';
import { transactionEffects, walletAccount } from '../domain/index.js';
import { defineProjector } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, defined, walletIdOfStream } from './events.js';

/** Sums as bigint: a batch of large events would round in JavaScript numbers past 2^53. */
interface Delta {
  owner: string | null;
  balance: bigint;
  held: bigint;
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
        d = { owner: null, balance: 0n, held: 0n, lastAmount: null, lastDate: null };
        deltas.set(walletId, d);
      }
      const account = walletAccount(walletId);
      if (event.type === 'WalletOpened') d.owner = event.data.ownerUserId;
      else if ('postings' in event.data) {
        for (const p of event.data.postings) {
          if (p.account === account) d.balance += BigInt(p.amount);
        }
      } else if (
        event.type === 'TransferReceived' ||
        event.type === 'FinancingReceived' ||
        event.type === 'HoldPaymentReceived' ||
        event.type === 'HoldSettlementReceived'
      ) {
        d.balance += BigInt(event.data.amount);
      }
      if (event.type === 'HoldPlaced') d.held += BigInt(event.data.amount);
      if (event.type === 'HoldReleased' || event.type === 'HoldCaptured') {
        d.held -= BigInt(event.data.amount);
      }
      if (event.type === 'HoldSettled') {
        d.held -= BigInt(event.data.captured) + BigInt(event.data.released);
      }
      for (const effect of transactionEffects(event)) {
        if (effect.kind === 'create' && effect.walletId === walletId) {
          d.lastAmount = effect.amount;
          d.lastDate = recorded.recordedAt;
        }
      }
    }
    if (!deltas.size) return;
    const rows = [...deltas].map(([walletId, d]) => ({
      wallet_id: walletId,
      owner_user_id: d.owner,
      // As decimal text: exact whatever the size (PostgreSQL adds them as bigint).
      balance: d.balance.toString(),
      held: d.held.toString(),
      available_balance: (d.balance - d.held).toString(),
      last_transaction_amount: d.lastAmount,
      last_transaction_date: d.lastDate,
    }));
    const touched = await trx
      .insertInto('wallet_balances')
      .values(rows)
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
      .returning(['wallet_id', 'owner_user_id'])
      .execute();
    const userIds = defined(touched.map((r) => r.owner_user_id));
    if (userIds.length) ctx.push(walletPush({ type: 'wallet.updated', userIds }));
  },
});
