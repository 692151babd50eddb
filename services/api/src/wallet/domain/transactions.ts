import type { WalletEvent } from './events.js';

export type OperationType = 'SUPPLY' | 'TRANSFER' | 'DEBIT' | 'REFUND' | 'STANDARD';
export type TransactionStatus = 'SUCCESS' | 'FAILED' | 'PENDING';

/** A row of a wallet's transaction list, keyed by `key` (one per wallet and movement). */
export interface TransactionRow {
  kind: 'create';
  key: string;
  walletId: string;
  reference: string;
  operationType: OperationType;
  status: TransactionStatus;
  /** Always positive; `direction` says whether the wallet received or paid. */
  amount: number;
  direction: 'IN' | 'OUT';
  counterpartyWalletId: string | null;
  reason: string | null;
}

/** A status change of a row created earlier. */
export interface TransactionStatusChange {
  kind: 'status';
  key: string;
  status: TransactionStatus;
}

export type TransactionEffect = TransactionRow | TransactionStatusChange;

const row = (r: Omit<TransactionRow, 'kind'>): TransactionRow => ({ kind: 'create', ...r });

/**
 * What an event does to the transaction list (decisions.md "Money and wallet"): SUPPLY when
 * a top-up is credited, TRANSFER wallet to wallet, DEBIT for a withdrawal (PENDING, then
 * SUCCESS or FAILED), REFUND when a failed withdrawal returns, STANDARD for financing and
 * contract payments. Refused commands record nothing, so they never appear.
 */
export function transactionEffects(event: WalletEvent): TransactionEffect[] {
  switch (event.type) {
    case 'SupplyCredited':
      return [
        row({
          key: `supply:${event.data.reference}`,
          walletId: event.data.walletId,
          reference: event.data.reference,
          operationType: 'SUPPLY',
          status: 'SUCCESS',
          amount: event.data.amount,
          direction: 'IN',
          counterpartyWalletId: null,
          reason: null,
        }),
      ];
    case 'TransferSent':
    case 'TransferReceived': {
      const out = event.type === 'TransferSent';
      const d = event.data;
      return [
        row({
          key: `transfer:${d.reference}:${out ? 'out' : 'in'}`,
          walletId: out ? d.fromWalletId : d.toWalletId,
          reference: d.reference,
          operationType: 'TRANSFER',
          status: 'SUCCESS',
          amount: d.amount,
          direction: out ? 'OUT' : 'IN',
          counterpartyWalletId: out ? d.toWalletId : d.fromWalletId,
          reason: d.reason,
        }),
      ];
    }
    case 'FinancingSent':
    case 'FinancingReceived': {
      const out = event.type === 'FinancingSent';
      const d = event.data;
      return [
        row({
          key: `financing:${d.reference}:${out ? 'out' : 'in'}`,
          walletId: out ? d.fromWalletId : d.toWalletId,
          reference: d.reference,
          operationType: 'STANDARD',
          status: 'SUCCESS',
          amount: d.amount,
          direction: out ? 'OUT' : 'IN',
          counterpartyWalletId: out ? d.toWalletId : d.fromWalletId,
          reason: 'Financement',
        }),
      ];
    }
    case 'WithdrawalDebited':
      return [
        row({
          key: `withdrawal:${event.data.withdrawalId}`,
          walletId: event.data.walletId,
          reference: event.data.withdrawalId,
          operationType: 'DEBIT',
          status: 'PENDING',
          amount: event.data.amount,
          direction: 'OUT',
          counterpartyWalletId: null,
          reason: event.data.reason ?? null,
        }),
      ];
    case 'WithdrawalCompleted':
      return [{ kind: 'status', key: `withdrawal:${event.data.withdrawalId}`, status: 'SUCCESS' }];
    case 'WithdrawalFailed':
      return [{ kind: 'status', key: `withdrawal:${event.data.withdrawalId}`, status: 'FAILED' }];
    case 'WithdrawalRefunded':
      return [
        row({
          key: `refund:${event.data.withdrawalId}`,
          walletId: event.data.walletId,
          reference: event.data.withdrawalId,
          operationType: 'REFUND',
          status: 'SUCCESS',
          amount: event.data.amount,
          direction: 'IN',
          counterpartyWalletId: null,
          reason: event.data.reason,
        }),
      ];
    case 'HoldCaptured':
      return [
        row({
          key: `hold:${event.data.holdId}:out`,
          walletId: event.data.walletId,
          reference: event.data.holdId,
          operationType: 'STANDARD',
          status: 'SUCCESS',
          amount: event.data.amount,
          direction: 'OUT',
          counterpartyWalletId:
            event.data.payments.length === 1 ? event.data.payments[0]!.walletId : null,
          reason: null,
        }),
      ];
    case 'HoldPaymentReceived':
      return [
        row({
          key: `hold:${event.data.holdId}:in:${event.data.walletId}`,
          walletId: event.data.walletId,
          reference: event.data.holdId,
          operationType: 'STANDARD',
          status: 'SUCCESS',
          amount: event.data.amount,
          direction: 'IN',
          counterpartyWalletId: event.data.fromWalletId,
          reason: null,
        }),
      ];
    // Each payment of a settlement: a STANDARD row for the payer and one for the payee.
    case 'HoldSettlementPaid':
      return [
        row({
          key: `settlement:${event.data.holdId}:${event.data.settlementId}:${event.data.toWalletId}:out`,
          walletId: event.data.fromWalletId,
          reference: event.data.holdId,
          operationType: 'STANDARD',
          status: 'SUCCESS',
          amount: event.data.amount,
          direction: 'OUT',
          counterpartyWalletId: event.data.toWalletId,
          reason: null,
        }),
      ];
    case 'HoldSettlementReceived':
      return [
        row({
          key: `settlement:${event.data.holdId}:${event.data.settlementId}:${event.data.walletId}:in`,
          walletId: event.data.walletId,
          reference: event.data.holdId,
          operationType: 'STANDARD',
          status: 'SUCCESS',
          amount: event.data.amount,
          direction: 'IN',
          counterpartyWalletId: event.data.fromWalletId,
          reason: null,
        }),
      ];
    default:
      return [];
  }
}
