/**
 * Benin phone numbers (decisions.md): forms accept the old 8-digit form and the
 * 10-digit form (`01` + the former 8 digits), with or without the country code (`+229`,
 * `00229`, or `229` as the original client sends it: `229` + 8 or 10 digits); storage is
 * E.164 `+22901XXXXXXXX`. A bare `229` is read as the country code only when 8 or 10 digits
 * follow it, so an 8-digit local number starting 229 stays local.
 */
export function normalizeBeninPhone(input: string): string | null {
  let digits = input.replace(/[\s.-]/g, '');
  if (digits.startsWith('+229')) digits = digits.slice(4);
  else if (digits.startsWith('00229')) digits = digits.slice(5);
  else if (/^229(\d{8}|\d{10})$/.test(digits)) digits = digits.slice(3);
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
