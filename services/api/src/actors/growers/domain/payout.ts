/**
 * The payout account of a grower is entered at registration; a later change is a request a
 * super admin approves (actors/payout/, four eyes). An edit that sends the account back
 * unchanged is accepted; a different one is refused with this message.
 */
export const PAYOUT_CHANGE_MESSAGE =
  'Le compte de reversement ne se modifie pas ici : utilisez « Demander un changement » sur la fiche du producteur ; le changement prend effet une fois approuvé par un super administrateur';

export interface PayoutAccount {
  momoAccountNumber: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
}

export interface PayoutEdit {
  accountInfo?: { providerName?: string | null; accountNumber?: string | null };
  momoInfo?: { momoNumber?: string | null };
}

const same = (a: string | null | undefined, b: string | null) =>
  a === undefined || (a ?? null) === b;

/** Whether an edit asks for a different payout account than `current`. */
export function asksPayoutChange(current: PayoutAccount, edit: PayoutEdit): boolean {
  return !(
    same(edit.momoInfo?.momoNumber, current.momoAccountNumber) &&
    same(edit.accountInfo?.providerName, current.bankName) &&
    same(edit.accountInfo?.accountNumber, current.bankAccountNumber)
  );
}

const MOOV_PREFIXES = new Set(['55', '58', '64', '65', '68', '95', '98', '99']);

/**
 * The mobile money operator of an E.164 number (decisions.md): the first two of the former 8
 * digits (`+22901` + 8 digits) 55, 58, 64, 65, 68, 95, 98, 99 are MOOV, others MTN.
 */
export function momoOperator(e164: string | null): 'MOOV' | 'MTN' | null {
  if (!e164 || !/^\+22901\d{8}$/.test(e164)) return null;
  return MOOV_PREFIXES.has(e164.slice(6, 8)) ? 'MOOV' : 'MTN';
}
