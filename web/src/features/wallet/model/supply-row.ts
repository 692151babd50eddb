import type { ApiResponse, RowOf } from '../../../shared/api/types.js';

/**
 * A row of the supply lists (the API lists supplies by reference; the screens use it as the
 * row id), with why a FAILED one failed, the payer's number and who asked for it.
 */
export type SupplyRow = RowOf<ApiResponse<'/api/supply'>> & { id: string };

/** Who asked for a supply: joined from `users` by the API at read time. */
export type SupplyRequester = NonNullable<SupplyRow['user']>;

/** A mobile-money or card supply still waiting for its payment: 'Réessayer' and 'Annuler'. */
export const awaitsPayment = (supply: Pick<SupplyRow, 'status' | 'paymentMethod'>): boolean =>
  supply.status === 'INIT' && supply.paymentMethod !== 'BANK';

const MOOV_PREFIXES = new Set(['55', '58', '64', '65', '68', '95', '98', '99']);

/**
 * The mobile-money operator of a Benin number typed as 8 digits (former plan) or 10 digits
 * (`01` + the former 8), decisions.md "Phones and identity": 55, 58, 64, 65, 68, 95, 98, 99
 * are MOOV, the others MTN; null until the number is complete.
 */
export function operatorOf(local: string): 'MOOV' | 'MTN' | null {
  const digits = local.replace(/\D/g, '');
  const former = /^01\d{8}$/.test(digits)
    ? digits.slice(2)
    : /^\d{8}$/.test(digits)
      ? digits
      : null;
  if (former === null) return null;
  return MOOV_PREFIXES.has(former.slice(0, 2)) ? 'MOOV' : 'MTN';
}
