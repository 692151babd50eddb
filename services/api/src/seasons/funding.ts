import type { EventStore } from '@filiere/event-store';
import {
  evolveWallet,
  initialWalletState,
  walletStreamId,
  type WalletEvent,
} from '../wallet/index.js';
import type { SeasonsDb } from './tables.js';
import { identityUsers } from '../identity/index.js';

export interface Funding {
  availableBalance: number;
  minSupplyAmount: number;
  /** The link counts as funded while the available balance covers minSupplyAmount. */
  funded: boolean;
  /** What is missing ('Approvisionner maintenant'): 0 when funded. */
  shortfall: number;
}

export type AvailableBalanceOf = (userId: string) => Promise<number>;

/**
 * The available balance (balance minus active holds) of a user's wallet, folded from its
 * wallet stream with the wallet's public face (its stream id and `evolve`), read through
 * the app's event store (which decodes with the product's catalogue): never the wallet's
 * read tables or internals. 0 for a user whose wallet never opened.
 */
export function availableBalanceReader(db: SeasonsDb, store: EventStore): AvailableBalanceOf {
  return async (userId) => {
    const user = await db
      .selectFrom(identityUsers().as('users'))
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user?.wallet_id) return 0;
    const events = await store.readStream(walletStreamId(String(user.wallet_id)));
    const state = events.reduce(
      (s, e) => evolveWallet(s, e as unknown as WalletEvent),
      initialWalletState(),
    );
    return state.availableBalance;
  };
}

export function fundingOf(availableBalance: number, minSupplyAmount: number): Funding {
  return {
    availableBalance,
    minSupplyAmount,
    funded: availableBalance >= minSupplyAmount,
    shortfall: Math.max(0, minSupplyAmount - availableBalance),
  };
}
