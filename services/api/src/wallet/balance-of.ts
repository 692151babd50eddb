import { sql, type Kysely } from 'kysely';
import { EventCatalogue, readStream, type EventStoreTables } from '@filiere/event-store';
import { BusinessRuleError, narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../identity/index.js';
import { walletEvents } from './catalogue.js';
import {
  evolveWallet,
  initialWalletState,
  walletStreamId,
  withdrawalStreamId,
  type WalletEvent,
} from './domain/index.js';
import { identityUsers } from '../identity/index.js';

/** Only the wallet's own streams are read here. */
const walletCatalogue = new EventCatalogue(walletEvents);

/** What the balance is read from: identity's users (the wallet id) and the event log. */
export type BalanceTables = Pick<IdentityTables, 'users'> & EventStoreTables;

/** What a user's wallet holds, and may still get back, read from the event log itself. */
export interface WalletHoldings {
  /** The wallet's balance (0 for a user without a wallet or whose wallet never opened). */
  balance: number;
  /** Withdrawals debited and not yet paid out nor refunded: a refund would come back. */
  withdrawalsInFlight: number;
}

/**
 * The balance of a user's wallet (deleted users included), folded from the wallet stream
 * (never from the read tables, which may lag), and its withdrawals still in flight.
 */
export async function walletBalanceOf<DB extends BalanceTables>(
  db: Kysely<DB>,
  userId: string,
): Promise<WalletHoldings> {
  const user = await narrowDb<BalanceTables>()(db)
    .selectFrom(identityUsers().as('users'))
    .select('wallet_id')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user?.wallet_id) return { balance: 0, withdrawalsInFlight: 0 };
  const stream = walletStreamId(String(user.wallet_id));
  const state = (await readStream(db, stream, { catalogue: walletCatalogue })).reduce(
    (s, event) => evolveWallet(s, event as unknown as WalletEvent),
    initialWalletState(),
  );
  const { rows } = await sql<{ n: number }>`
    select count(*)::integer as n from events debited
    where debited.stream_id = ${stream} and debited.type = 'WithdrawalDebited'
      and not exists (
        select 1 from events settled
        where settled.stream_id = ${withdrawalStreamId('')} || (debited.data->>'withdrawalId')
          and settled.type in ('WithdrawalCompleted', 'WithdrawalFailed'))`.execute(db);
  return { balance: state.balance, withdrawalsInFlight: rows[0]?.n ?? 0 };
}

/**
 * Refuses (422) to let a user go while money is still theirs: a balance that is not zero,
 * or a withdrawal whose payout may still fail and be refunded into the wallet. The identity
 * service calls it before deleting a user.
 */
export async function requireEmptyWallet<DB extends BalanceTables>(
  db: Kysely<DB>,
  userId: string,
): Promise<void> {
  const holdings = await walletBalanceOf(db, userId);
  if (holdings.balance !== 0) {
    throw new BusinessRuleError(
      'Impossible de supprimer un utilisateur dont le solde n’est pas nul',
      { reason: 'WALLET_NOT_EMPTY', balance: holdings.balance },
    );
  }
  if (holdings.withdrawalsInFlight > 0) {
    throw new BusinessRuleError(
      'Impossible de supprimer un utilisateur dont un retrait est en cours',
      { reason: 'WITHDRAWAL_IN_FLIGHT' },
    );
  }
}
