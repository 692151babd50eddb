import type { PaymentMethod } from './accounts.js';
import type { WalletEvent } from './events.js';

export type SupplyStatus = 'INIT' | 'PENDING' | 'SUCCESS' | 'FAILED';
/**
 * Why a FAILED supply failed: the provider or the widget, the payer, a super admin, or no
 * payment found at the provider within the abandon delay.
 */
export type SupplyFailureKind = 'FAILED' | 'CANCELLED' | 'REJECTED' | 'EXPIRED';

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
  failureKind: SupplyFailureKind | null;
  /** The payer's mobile money number given for the widget (E.164), if any. */
  payerPhone: string | null;
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
    failureKind: null,
    payerPhone: null,
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
        payerPhone: event.data.payerPhone ?? null,
      };
    case 'SupplyMarkedPending':
      return { ...state, status: 'PENDING' };
    case 'SupplySucceeded':
      return {
        ...state,
        status: 'SUCCESS',
        providerTransactionId: event.data.providerTransactionId,
        // A cancelled supply the provider proves paid is credited after all.
        failureReason: null,
        failureKind: null,
      };
    case 'SupplyFailed':
      return {
        ...state,
        status: 'FAILED',
        failureReason: event.data.reason,
        failureKind: event.data.expired ? 'EXPIRED' : 'FAILED',
        providerTransactionId: event.data.providerTransactionId ?? state.providerTransactionId,
      };
    case 'SupplyCancelled':
      return { ...state, status: 'FAILED', failureReason: null, failureKind: 'CANCELLED' };
    case 'SupplyRejected':
      return {
        ...state,
        status: 'FAILED',
        failureReason: event.data.reason,
        failureKind: 'REJECTED',
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
