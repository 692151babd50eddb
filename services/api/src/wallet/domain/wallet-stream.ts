import { walletAccount } from './accounts.js';
import type { WalletEvent } from './events.js';

export type HoldStatus = 'ACTIVE' | 'RELEASED' | 'CAPTURED';

/** The folded state of stream `wallet-<walletId>`. Plain data, safe to serialise. */
export interface WalletState {
  opened: boolean;
  walletId: string | null;
  ownerUserId: string | null;
  balance: number;
  /** Sum of ACTIVE holds. */
  held: number;
  availableBalance: number;
  holds: Record<string, { amount: number; status: HoldStatus }>;
  /** Provider transaction ids already credited (verification is idempotent on them). */
  processedTransactionIds: Record<string, true>;
  /** Supply references already credited. */
  creditedSupplies: Record<string, true>;
}

export const walletStreamId = (walletId: string): string => `wallet-${walletId}`;

export function initialWalletState(): WalletState {
  return {
    opened: false,
    walletId: null,
    ownerUserId: null,
    balance: 0,
    held: 0,
    availableBalance: 0,
    holds: {},
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
    case 'WithdrawalDebited':
    case 'WithdrawalRefunded':
      return withBalances(state, state.balance + postedTo(state, event.data.postings), state.held);
    case 'TransferReceived':
    case 'FinancingReceived':
    case 'HoldPaymentReceived':
      return withBalances(state, state.balance + event.data.amount, state.held);
    case 'HoldPlaced':
      return {
        ...withBalances(state, state.balance, state.held + event.data.amount),
        holds: {
          ...state.holds,
          [event.data.holdId]: { amount: event.data.amount, status: 'ACTIVE' },
        },
      };
    case 'HoldReleased':
      return {
        ...withBalances(state, state.balance, state.held - event.data.amount),
        holds: {
          ...state.holds,
          [event.data.holdId]: { amount: event.data.amount, status: 'RELEASED' },
        },
      };
    case 'HoldCaptured':
      return {
        ...withBalances(
          state,
          state.balance + postedTo(state, event.data.postings),
          state.held - event.data.amount,
        ),
        holds: {
          ...state.holds,
          [event.data.holdId]: { amount: event.data.amount, status: 'CAPTURED' },
        },
      };
    default:
      return state;
  }
}

export const walletStream = {
  category: 'wallet',
  initialState: initialWalletState,
  evolve: evolveWallet,
};
