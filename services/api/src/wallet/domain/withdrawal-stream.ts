import type { WithdrawalMethod } from './accounts.js';
import type { WalletEvent } from './events.js';

export type WithdrawalStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** The folded state of stream `withdrawal-<withdrawalId>`. */
export interface WithdrawalState {
  exists: boolean;
  withdrawalId: string | null;
  walletId: string | null;
  status: WithdrawalStatus | null;
  method: WithdrawalMethod | null;
  amount: number;
  destination: string | null;
  providerId: string | null;
  failureReason: string | null;
}

export const withdrawalStreamId = (withdrawalId: string): string => `withdrawal-${withdrawalId}`;

export function initialWithdrawalState(): WithdrawalState {
  return {
    exists: false,
    withdrawalId: null,
    walletId: null,
    status: null,
    method: null,
    amount: 0,
    destination: null,
    providerId: null,
    failureReason: null,
  };
}

export function evolveWithdrawal(state: WithdrawalState, event: WalletEvent): WithdrawalState {
  switch (event.type) {
    case 'WithdrawalRequested':
      return {
        ...state,
        exists: true,
        withdrawalId: event.data.withdrawalId,
        walletId: event.data.walletId,
        status: 'PENDING',
        method: event.data.method,
        amount: event.data.amount,
        destination: event.data.destination,
      };
    case 'WithdrawalCompleted':
      return { ...state, status: 'SUCCESS', providerId: event.data.providerId };
    case 'WithdrawalFailed':
      return { ...state, status: 'FAILED', failureReason: event.data.reason };
    default:
      return state;
  }
}

export const withdrawalStream = {
  category: 'withdrawal',
  initialState: initialWithdrawalState,
  evolve: evolveWithdrawal,
};
