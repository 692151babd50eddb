import type { PaymentMethod } from './accounts.js';
import type { WalletEvent } from './events.js';

export type SupplyStatus = 'INIT' | 'PENDING' | 'SUCCESS' | 'FAILED';

/** The folded state of stream `supply-<reference>`. */
export interface SupplyState {
  exists: boolean;
  reference: string | null;
  status: SupplyStatus | null;
  method: PaymentMethod | null;
  amount: number;
  walletId: string | null;
  ownerUserId: string | null;
  bankCode: string | null;
  bankAccountNumber: string | null;
  providerTransactionId: string | null;
  failureReason: string | null;
}

export const supplyStreamId = (reference: string): string => `supply-${reference}`;

export function initialSupplyState(): SupplyState {
  return {
    exists: false,
    reference: null,
    status: null,
    method: null,
    amount: 0,
    walletId: null,
    ownerUserId: null,
    bankCode: null,
    bankAccountNumber: null,
    providerTransactionId: null,
    failureReason: null,
  };
}

export function evolveSupply(state: SupplyState, event: WalletEvent): SupplyState {
  switch (event.type) {
    case 'SupplyInitiated':
      return {
        ...state,
        exists: true,
        reference: event.data.reference,
        status: 'INIT',
        method: event.data.method,
        amount: event.data.amount,
        walletId: event.data.walletId,
        ownerUserId: event.data.ownerUserId,
        bankCode: event.data.bankCode,
        bankAccountNumber: event.data.bankAccountNumber,
      };
    case 'SupplyMarkedPending':
      return { ...state, status: 'PENDING' };
    case 'SupplySucceeded':
      return {
        ...state,
        status: 'SUCCESS',
        providerTransactionId: event.data.providerTransactionId,
      };
    case 'SupplyFailed':
      return {
        ...state,
        status: 'FAILED',
        failureReason: event.data.reason,
        providerTransactionId: event.data.providerTransactionId ?? state.providerTransactionId,
      };
    default:
      return state;
  }
}

export const supplyStream = {
  category: 'supply',
  initialState: initialSupplyState,
  evolve: evolveSupply,
};
