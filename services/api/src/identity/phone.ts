/**
 * Benin phone numbers (decisions.md): forms accept the old 8-digit form and the
 * 10-digit form (`01` + the former 8 digits), with or without the +229 prefix;
 * storage is E.164 `+22901XXXXXXXX`.
 */
export function normalizeBeninPhone(input: string): string | null {
  let digits = input.replace(/[\s.-]/g, '');
  if (digits.startsWith('+229')) digits = digits.slice(4);
  else if (digits.startsWith('00229')) digits = digits.slice(5);
  if (!/^\d+$/.test(digits)) return null;
  if (digits.length === 8) return `+22901${digits}`;
  if (digits.length === 10 && digits.startsWith('01')) return `+229${digits}`;
  return null;
}

const MOOV_PREFIXES = new Set(['55', '58', '64', '65', '68', '95', '98', '99']);

/** Mobile-money operator from the first two of the former 8 digits. */
export function phoneOperator(e164: string): 'MOOV' | 'MTN' {
  return MOOV_PREFIXES.has(e164.slice(6, 8)) ? 'MOOV' : 'MTN';
}
