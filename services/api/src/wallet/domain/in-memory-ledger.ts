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

  events(streamId: string): WalletEvent[] {
    return this.streams.get(streamId) ?? [];
  }

  wallet(walletId: string): WalletState {
    return this.events(walletStreamId(walletId)).reduce(evolveWallet, initialWalletState());
  }

  supply(reference: string): SupplyState {
    return this.events(supplyStreamId(reference)).reduce(evolveSupply, initialSupplyState());
  }

  withdrawal(withdrawalId: string): WithdrawalState {
    return this.events(withdrawalStreamId(withdrawalId)).reduce(
      evolveWithdrawal,
      initialWithdrawalState(),
    );
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
    }
    for (const write of decision.writes) {
      for (const event of write.events) {
        const postings = postingsOf(event);
        if (postings.length > 0) assertBalanced(postings);
      }
      this.streams.set(write.streamId, [...this.events(write.streamId), ...write.events]);
    }
    return decision.result;
  }

  /** Every posting of every event, each movement once. */
  postings(): Posting[] {
    return [...this.streams.values()].flat().flatMap(postingsOf);
  }
}
