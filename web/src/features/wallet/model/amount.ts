/** i18n keys (namespace `validation`) of the wallet forms' messages. */
export type FieldMessage = 'validation:required' | 'validation:invalid';

/**
 * An amount field: required, digits only once spaces are removed, not zero
 * ('Entré non valide'); the value is the integer F CFA.
 */
export function amountError(value: number | null): FieldMessage | null {
  if (value === null) return 'validation:required';
  if (!Number.isSafeInteger(value) || value <= 0) return 'validation:invalid';
  return null;
}

export function requiredError(value: string | null | undefined): FieldMessage | null {
  return value && value.trim() ? null : 'validation:required';
}

/** The bank reference retyped by the super admin must equal the displayed one exactly. */
export function referenceMatches(typed: string, reference: string): boolean {
  return typed === reference && reference.length > 0;
}
