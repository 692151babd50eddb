import { ConcurrencyError } from '@filiere/platform';
import { assertBalanced, type Posting } from './accounts.js';
import type { Decision } from './decision.js';
import { postingsOf, type WalletEvent } from './events.js';
import {
  evolveSupply,
  initialSupplyState,
  supplyStreamId,
  type SupplyState,
} from './supply-stream.js';
import {
  evolveWallet,
  initialWalletState,
  walletStreamId,
  type WalletState,
} from './wallet-stream.js';
import {
  evolveWithdrawal,
  initialWithdrawalState,
  withdrawalStreamId,
  type WithdrawalState,
} from './withdrawal-stream.js';

/**
 * Streams of wallet events held in memory, folded on demand: the test double of the event
 * store for deciders' specs and property tests (pure, no I/O).
 */
export class InMemoryWalletLedger {
  readonly streams = new Map<string, WalletEvent[]>();
  // Folded states and postings kept up to date on append, so reads are cheap.
  private readonly wallets = new Map<string, WalletState>();
  private readonly supplies = new Map<string, SupplyState>();
  private readonly withdrawals = new Map<string, WithdrawalState>();
  private readonly allPostings: Posting[] = [];

  events(streamId: string): WalletEvent[] {
    return this.streams.get(streamId) ?? [];
  }

  wallet(walletId: string): WalletState {
    return this.wallets.get(walletStreamId(walletId)) ?? initialWalletState();
  }

  supply(reference: string): SupplyState {
    return this.supplies.get(supplyStreamId(reference)) ?? initialSupplyState();
  }

  withdrawal(withdrawalId: string): WithdrawalState {
    return this.withdrawals.get(withdrawalStreamId(withdrawalId)) ?? initialWithdrawalState();
  }

  /** A stream's version: the number of events in it. */
  version(streamId: string): number {
    return this.events(streamId).length;
  }

  /**
   * Appends a decision's events, checking every money event is balanced. With
   * `expectedVersions` (the versions the decision was made against), a stream that moved
   * since refuses the whole decision, like the event store's unique (stream, version).
   */
  apply<R>(decision: Decision<R>, expectedVersions?: Record<string, number>): R {
    for (const write of decision.writes) {
      const expected = expectedVersions?.[write.streamId];
      if (expected !== undefined && expected !== this.version(write.streamId)) {
        throw new ConcurrencyError('Le portefeuille a changé, réessayez', {
          streamId: write.streamId,
        });
      }
      for (const event of write.events) {
        const postings = postingsOf(event);
        if (postings.length > 0) assertBalanced(postings);
      }
    }
    for (const write of decision.writes) {
      this.streams.set(write.streamId, [...this.events(write.streamId), ...write.events]);
      for (const event of write.events) {
        this.fold(write.streamId, event);
        this.allPostings.push(...postingsOf(event));
      }
    }
    return decision.result;
  }

  private fold(streamId: string, event: WalletEvent): void {
    const category = streamId.slice(0, streamId.indexOf('-'));
    if (category === 'wallet') {
      this.wallets.set(
        streamId,
        evolveWallet(this.wallets.get(streamId) ?? initialWalletState(), event),
      );
    } else if (category === 'supply') {
      this.supplies.set(
        streamId,
        evolveSupply(this.supplies.get(streamId) ?? initialSupplyState(), event),
      );
    } else if (category === 'withdrawal') {
      this.withdrawals.set(
        streamId,
        evolveWithdrawal(this.withdrawals.get(streamId) ?? initialWithdrawalState(), event),
      );
    }
  }

  /** Every posting of every event, each movement once. */
  postings(): Posting[] {
    return [...this.allPostings];
  }

  /** Each wallet's state folded from scratch (to check the incremental fold against). */
  refold(walletId: string): WalletState {
    return this.events(walletStreamId(walletId)).reduce(evolveWallet, initialWalletState());
  }
}
