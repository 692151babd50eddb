/**
 * A hold's code as its payments' reference: the contract reference that ends its purpose
 * ('Contrat de livraison LIV-93F1C694' → 'LIV-93F1C694', 'Contrat de transport TR-…'). The code
 * alone, not the purpose: the purpose is French text written once in the event, and a
 * reference is shown as data in every language. Other purposes (an input provider's
 * assignment) have none: their rows keep the hold's id. The migration that backfilled
 * `wallet_hold_labels` applies the same pattern in SQL (HOLD_CODE_SQL), so live = rebuild.
 */
export const HOLD_CODE = /([A-Z]{2,}-[A-Z0-9-]+)$/;
export const HOLD_CODE_SQL = '([A-Z]{2,}-[A-Z0-9-]+)$';

export function holdCode(purpose: string): string | undefined {
  return HOLD_CODE.exec(purpose.trim())?.[1];
}
