import { ValidationError } from '@filiere/platform';

/**
 * The ledger's accounts. A user wallet is `wallet:<walletId>`; every other account is a
 * system account standing for money outside the platform:
 * - `clearing:MOBILE_MONEY`, `clearing:CARD`: what the payment provider owes us for top-ups
 *   (goes negative as supplies are credited; payouts settle back into it);
 * - `bank:<bankCode>`: the accepted bank's account for top-ups by bank transfer;
 * - `payout:MOBILE_MONEY`, `payout:BANK`: money debited from a wallet and in flight to the
 *   provider until the payout succeeds (settles out) or fails (refunded to the wallet).
 */
export type PaymentMethod = 'MOBILE_MONEY' | 'CARD' | 'BANK';
export type WithdrawalMethod = 'MOBILE_MONEY' | 'BANK';

export type AccountId =
  | `wallet:${string}`
  | 'clearing:MOBILE_MONEY'
  | 'clearing:CARD'
  | `bank:${string}`
  | 'payout:MOBILE_MONEY'
  | 'payout:BANK';

export const walletAccount = (walletId: string): AccountId => `wallet:${walletId}`;
export const clearingAccount = (method: 'MOBILE_MONEY' | 'CARD'): AccountId => `clearing:${method}`;
export const bankAccount = (bankCode: string): AccountId => `bank:${bankCode}`;
export const payoutAccount = (method: WithdrawalMethod): AccountId => `payout:${method}`;

/** Where a top-up's money comes from: the provider's clearing account or the bank's. */
export function supplySourceAccount(method: PaymentMethod, bankCode: string): AccountId {
  return method === 'BANK' ? bankAccount(bankCode) : clearingAccount(method);
}

/** Where a paid-out withdrawal settles: the mobile-money clearing account or the bank's. */
export function payoutSettlementAccount(method: WithdrawalMethod, bankCode: string): AccountId {
  return method === 'BANK' ? bankAccount(bankCode) : clearingAccount('MOBILE_MONEY');
}

/** One leg of a movement: positive credits the account, negative debits it. */
export interface Posting {
  account: string;
  amount: number;
}

/** A movement of `amount` from one account to another, as two balanced postings. */
export function move(from: string, to: string, amount: number): Posting[] {
  return [
    { account: from, amount: -amount },
    { account: to, amount },
  ];
}

/** Throws unless every posting is a non-zero safe integer and they sum to exactly 0. */
export function assertBalanced(postings: readonly Posting[]): void {
  if (postings.length < 2) {
    throw new ValidationError('Une écriture comptable a au moins deux lignes');
  }
  let sum = 0;
  for (const posting of postings) {
    if (!Number.isSafeInteger(posting.amount) || posting.amount === 0) {
      throw new ValidationError('Montant d’écriture invalide', { account: posting.account });
    }
    sum += posting.amount;
    if (!Number.isSafeInteger(sum)) {
      throw new ValidationError('Montant d’écriture hors limites');
    }
  }
  if (sum !== 0) {
    throw new ValidationError('Écriture déséquilibrée', { sum });
  }
}

/** Validates a money amount given by a user: a safe integer above zero (F CFA has no cents). */
export function assertAmount(amount: unknown, field = 'amount'): asserts amount is number {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
    throw new ValidationError('Montant invalide', {
      fields: { [field]: 'Le montant doit être un entier strictement positif' },
    });
  }
}

/** Sums postings per account (a ledger's trial balance). */
export function balancesByAccount(postings: Iterable<Posting>): Map<string, number> {
  const balances = new Map<string, number>();
  for (const { account, amount } of postings) {
    balances.set(account, (balances.get(account) ?? 0) + amount);
  }
  return balances;
}
