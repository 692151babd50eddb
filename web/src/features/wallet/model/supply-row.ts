import type { Supply } from './types.js';

/** Who asked for a supply: joined from `users` by the API at read time. */
export interface SupplyRequester {
  id: string;
  firstname: string;
  lastname: string;
  organization: string | null;
}

/** A row of the supply lists, with why a FAILED one failed and the payer's number. */
export interface SupplyRow extends Supply {
  /**
   * CANCELLED by its payer, REJECTED by a super admin, EXPIRED when the background check found
   * no payment in time; null for a provider's refusal.
   */
  failureCode?: 'CANCELLED' | 'REJECTED' | 'EXPIRED' | null;
  failureReason?: string | null;
  /** E.164, the number given to the widget (mobile money and card). */
  payerPhone?: string | null;
  user?: SupplyRequester | null;
}

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
