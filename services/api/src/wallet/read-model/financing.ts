import { sql } from 'kysely';
import { defineProjector } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, defined } from './events.js';

type FinancingTables = Pick<WalletReadTables, 'wallet_financings'>;

/**
 * `wallet_financings`: one row per financing between two aggregators; the sender's event
 * names the beneficiary, the receiver's names the funder, so the row is completed by both.
 */
export const financingProjector = defineProjector<FinancingTables>({
  name: 'wallet-financing',
  eventTypes: ['FinancingSent', 'FinancingReceived'],
  tables: ['wallet_financings'],
  async apply(trx, events, ctx) {
    const touched: string[] = [];
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      if (event.type !== 'FinancingSent' && event.type !== 'FinancingReceived') continue;
      const d = event.data;
      const sent = event.type === 'FinancingSent';
      const fromUser = sent ? null : event.data.fromUserId;
      const toUser = sent ? event.data.toUserId : null;
      await trx
        .insertInto('wallet_financings')
        .values({
          reference: d.reference,
          from_wallet_id: d.fromWalletId,
          to_wallet_id: d.toWalletId,
          from_user_id: fromUser,
          to_user_id: toUser,
          amount: d.amount,
          status: 'SUCCESS',
          created_at: recorded.recordedAt,
        })
        .onConflict((oc) =>
          oc.column('reference').doUpdateSet({
            from_user_id: sql`coalesce(${sql.ref('wallet_financings.from_user_id')}, excluded.from_user_id)`,
            to_user_id: sql`coalesce(${sql.ref('wallet_financings.to_user_id')}, excluded.to_user_id)`,
          }),
        )
        .execute();
      touched.push(...defined([fromUser, toUser]));
    }
    const userIds = defined(touched);
    if (userIds.length) ctx.push(walletPush({ type: 'financing.updated', userIds }));
  },
});
