/** i18n keys of the wallet forms' messages (namespaces `validation` and `wallet`). */
export type FieldMessage =
  | 'validation:required'
  | 'validation:invalid'
  | 'wallet:amountLimits.aboveMax'
  | 'wallet:amountLimits.aboveAvailable';

/**
 * What an amount may not exceed, when known: the most one command moves (the server's
 * MAX_COMMAND_AMOUNT) and the wallet's available balance (for money leaving it).
 */
export interface AmountLimits {
  max?: number;
  available?: number;
}

/**
 * An amount field: required, digits only once spaces are removed, not zero
 * ('Entré non valide'); then at most the ceiling and the available balance, so the form says
 * so before any confirmation. The value is the integer F CFA.
 */
export function amountError(value: number | null, limits: AmountLimits = {}): FieldMessage | null {
  if (value === null) return 'validation:required';
  if (!Number.isSafeInteger(value) || value <= 0) return 'validation:invalid';
  if (limits.max !== undefined && value > limits.max) return 'wallet:amountLimits.aboveMax';
  if (limits.available !== undefined && value > limits.available) {
    return 'wallet:amountLimits.aboveAvailable';
  }
  return null;
}

export function requiredError(value: string | null | undefined): FieldMessage | null {
  return value && value.trim() ? null : 'validation:required';
}

/** The bank reference retyped by the super admin must equal the displayed one exactly. */
export function referenceMatches(typed: string, reference: string): boolean {
  return typed === reference && reference.length > 0;
}
