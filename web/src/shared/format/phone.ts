/**
 * Benin numbers: forms accept 8 digits or 10 digits (`01` + the former 8);
 * storage is E.164 `+22901XXXXXXXX`.
 */
export function toE164(local: string): string {
  const digits = local.replace(/\D/g, '');
  return `+229${digits.length === 8 ? `01${digits}` : digits}`;
}

/** The local 10-digit form of a stored number, for display and editing. */
export function toLocalPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  return e164.replace(/^\+?229/, '');
}
