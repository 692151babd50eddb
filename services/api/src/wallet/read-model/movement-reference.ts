import { holdPaymentReference, holdReference, transferReference } from '../../kernel/references.js';
import type { WalletEvent } from '../domain/index.js';

/**
 * The human reference of the movement a wallet event records (kernel/references.ts), given
 * its hold's code when it pays or moves a hold: what the transactions list, its detail and
 * export, and the statement show. Derived from the event alone (and the hold's code, itself
 * from the hold's HoldPlaced), so a rebuild gives the same references.
 */
export function movementReference(event: WalletEvent, holdCode: string | undefined): string | null {
  switch (event.type) {
    // The commands draw these references readable (commands/references.ts).
    case 'SupplyCredited':
      return event.data.reference;
    case 'TransferSent':
    case 'TransferReceived':
      return transferReference(event.data.reference, event.data.reason);
    case 'FinancingSent':
    case 'FinancingReceived':
      return event.data.reference;
    case 'WithdrawalDebited':
    case 'WithdrawalCompleted':
    case 'WithdrawalFailed':
    case 'WithdrawalRefunded':
      return event.data.withdrawalId;
    case 'HoldSettlementPaid':
    case 'HoldSettlementReceived':
      return holdPaymentReference(event.data.holdId, event.data.settlementId, holdCode);
    case 'HoldPlaced':
    case 'HoldReleased':
    case 'HoldCaptured':
    case 'HoldPaymentReceived':
    case 'HoldSettled':
      return holdReference(event.data.holdId, holdCode);
    default:
      return null;
  }
}
