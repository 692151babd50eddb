import { Map as ImmutableMap } from 'immutable';
import { walletAccount } from './accounts.js';
import type { WalletEvent } from './events.js';

export type HoldStatus = 'ACTIVE' | 'RELEASED' | 'CAPTURED';

/** What one settlement of a hold did (`settleHold`), kept to answer a repeat the same way. */
export interface HoldSettlementFigures {
  status: 'ACTIVE' | 'CAPTURED';
  captured: number;
  excess: number;
  released: number;
  remaining: number;
}

/**
 * A hold: `amount` placed; `remaining` = amount − captured − released, what still counts in
 * `held` while ACTIVE (0 once RELEASED or CAPTURED); `settlements` by settlementId.
 */
export interface HoldState {
  amount: number;
  status: HoldStatus;
  remaining: number;
  settlements: Record<string, HoldSettlementFigures>;
}

/**
 * Every hold the wallet ever had (closed ones too: a hold id is never placed twice, and a
 * closed hold answers a repeat and refuses a new capture, release or settlement), by holdId.
 * A persistent map (immutable's HAMT): a hold event makes a new map sharing all but O(log n)
 * nodes with the old one, so it costs microseconds at any number of holds, and a state the
 * pipeline cached (or evolved speculatively for a batch that then failed) is never changed.
 * A plain record copied on each hold event cost 4.7 CPU-ms per event at 10,000 holds.
 */
export type HoldBook = ImmutableMap<string, HoldState>;

/** A hold book of the given holds (tests, fixtures). */
export function holdBook(holds: Record<string, HoldState> = {}): HoldBook {
  return ImmutableMap(Object.entries(holds));
}

/**
 * The folded state of stream `wallet-<walletId>`. Immutable data (never changed once made),
 * serialisable as JSON (the hold book writes itself as an object).
 */
export interface WalletState {
  opened: boolean;
  walletId: string | null;
  ownerUserId: string | null;
  balance: number;
  /** Sum of the remaining amounts of ACTIVE holds. */
  held: number;
  availableBalance: number;
  holds: HoldBook;
  /** Provider transaction ids already credited (verification is idempotent on them). */
  processedTransactionIds: Record<string, true>;
  /** Supply references already credited. */
  creditedSupplies: Record<string, true>;
}

export const walletStreamId = (walletId: string): string => `wallet-${walletId}`;

const EMPTY_HOLDS: HoldBook = ImmutableMap();

export function initialWalletState(): WalletState {
  return {
    opened: false,
    walletId: null,
    ownerUserId: null,
    balance: 0,
    held: 0,
    availableBalance: 0,
    holds: EMPTY_HOLDS,
    processedTransactionIds: {},
    creditedSupplies: {},
  };
}

/** This wallet's share of an event's postings (0 when the event posts nothing to it). */
function postedTo(state: WalletState, postings: { account: string; amount: number }[]): number {
  if (state.walletId === null) return 0;
  const account = walletAccount(state.walletId);
  return postings.reduce((sum, p) => (p.account === account ? sum + p.amount : sum), 0);
}

function withBalances(state: WalletState, balance: number, held: number): WalletState {
  return { ...state, balance, held, availableBalance: balance - held };
}

function holdOf(state: WalletState, holdId: string, amount: number): HoldState {
  return (
    state.holds.get(holdId) ?? { amount, status: 'ACTIVE', remaining: amount, settlements: {} }
  );
}

export function evolveWallet(state: WalletState, event: WalletEvent): WalletState {
  switch (event.type) {
    case 'WalletOpened':
      return {
        ...state,
        opened: true,
        walletId: event.data.walletId,
        ownerUserId: event.data.ownerUserId,
      };
    case 'SupplyCredited': {
      const next = withBalances(
        state,
        state.balance + postedTo(state, event.data.postings),
        state.held,
      );
      return {
        ...next,
        creditedSupplies: { ...state.creditedSupplies, [event.data.reference]: true },
        processedTransactionIds:
          event.data.providerTransactionId === null
            ? state.processedTransactionIds
            : { ...state.processedTransactionIds, [event.data.providerTransactionId]: true },
      };
    }
    case 'TransferSent':
    case 'FinancingSent':
    case 'HoldSettlementPaid':
    case 'WithdrawalDebited':
    case 'WithdrawalRefunded':
      return withBalances(state, state.balance + postedTo(state, event.data.postings), state.held);
    case 'TransferReceived':
    case 'FinancingReceived':
    case 'HoldPaymentReceived':
    case 'HoldSettlementReceived':
      return withBalances(state, state.balance + event.data.amount, state.held);
    case 'HoldPlaced':
      return {
        ...withBalances(state, state.balance, state.held + event.data.amount),
        holds: state.holds.set(event.data.holdId, {
          amount: event.data.amount,
          status: 'ACTIVE',
          remaining: event.data.amount,
          settlements: {},
        }),
      };
    // Released and captured carry what was still held (the whole hold when never settled).
    case 'HoldReleased':
    case 'HoldCaptured': {
      const hold = holdOf(state, event.data.holdId, event.data.amount);
      return {
        ...withBalances(
          state,
          state.balance +
            (event.type === 'HoldCaptured' ? postedTo(state, event.data.postings) : 0),
          state.held - event.data.amount,
        ),
        holds: state.holds.set(event.data.holdId, {
          ...hold,
          status: event.type === 'HoldCaptured' ? 'CAPTURED' : 'RELEASED',
          remaining: 0,
        }),
      };
    }
    case 'HoldSettled': {
      const d = event.data;
      const hold = holdOf(state, d.holdId, d.captured + d.released + d.remaining);
      return {
        ...withBalances(state, state.balance, state.held - d.captured - d.released),
        holds: state.holds.set(d.holdId, {
          ...hold,
          status: d.status,
          remaining: d.remaining,
          settlements: {
            ...hold.settlements,
            [d.settlementId]: {
              status: d.status,
              captured: d.captured,
              excess: d.excess,
              released: d.released,
              remaining: d.remaining,
            },
          },
        }),
      };
    }
    default:
      return state;
  }
}

export const walletStream = {
  category: 'wallet',
  initialState: initialWalletState,
  evolve: evolveWallet,
};
