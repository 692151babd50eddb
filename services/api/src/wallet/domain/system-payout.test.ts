import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { balancesByAccount } from './accounts.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { transactionEffects } from './transactions.js';
import {
  completeWithdrawal,
  failWithdrawal,
  requestSystemPayout,
  type RequestSystemPayout,
} from './withdrawal.js';
import { givenWallet } from './test-fixtures.js';

/** Given: a grower's wallet credited 10,000 (its contract's payment). */
function given() {
  const ledger = new InMemoryWalletLedger();
  givenWallet(ledger, 'grower', 10_000);
  return ledger;
}

function payout(
  ledger: InMemoryWalletLedger,
  overrides: Partial<RequestSystemPayout> = {},
  destination: string | null = '+2290197000000',
) {
  const cmd: RequestSystemPayout = {
    withdrawalId: 'run-C1',
    walletId: 'grower',
    amount: 8000,
    reason: 'Paiement du contrat LIV-0001',
    ...overrides,
  };
  return requestSystemPayout(
    { wallet: ledger.wallet(cmd.walletId), withdrawal: ledger.withdrawal(cmd.withdrawalId) },
    cmd,
    { destination },
  );
}

describe('requestSystemPayout', () => {
  it('debits the wallet into payout clearing, PENDING, to the mobile money number, with its reason', () => {
    const ledger = given();
    const decision = payout(ledger);
    expect(decision.result).toEqual({ withdrawalId: 'run-C1', status: 'PENDING', amount: 8000 });
    const rows = decision.writes.flatMap((w) => w.events).flatMap(transactionEffects);
    expect(rows).toEqual([
      expect.objectContaining({
        operationType: 'DEBIT',
        status: 'PENDING',
        amount: 8000,
        reason: 'Paiement du contrat LIV-0001',
      }),
    ]);
    ledger.apply(decision);
    expect(ledger.wallet('grower')).toMatchObject({ balance: 2000, availableBalance: 2000 });
    expect(ledger.withdrawal('run-C1')).toMatchObject({
      status: 'PENDING',
      method: 'MOBILE_MONEY',
      destination: '+2290197000000',
    });
    expect(balancesByAccount(ledger.postings()).get('payout:MOBILE_MONEY')).toBe(8000);
  });

  it('a retry with the same withdrawalId writes nothing and answers the same', () => {
    const ledger = given();
    ledger.apply(payout(ledger));
    const again = payout(ledger);
    expect(again.writes).toEqual([]);
    expect(again.result).toEqual({ withdrawalId: 'run-C1', status: 'PENDING', amount: 8000 });
    // Even once paid out, or once refunded: the retry never debits again.
    ledger.apply(
      completeWithdrawal(
        ledger.withdrawal('run-C1'),
        { withdrawalId: 'run-C1' },
        { bankCode: 'B' },
      ),
    );
    expect(payout(ledger).writes).toEqual([]);
    expect(ledger.wallet('grower').balance).toBe(2000);
  });

  it('a failed payout refunds the grower like a user’s withdrawal', () => {
    const ledger = given();
    ledger.apply(payout(ledger));
    ledger.apply(
      failWithdrawal(
        { withdrawal: ledger.withdrawal('run-C1'), wallet: ledger.wallet('grower') },
        { withdrawalId: 'run-C1', reason: 'Numéro inconnu' },
      ),
    );
    expect(ledger.wallet('grower').balance).toBe(10_000);
    expect(payout(ledger).writes).toEqual([]);
  });

  it('the same id for another amount or wallet is a conflict', () => {
    const ledger = given();
    givenWallet(ledger, 'other', 10_000);
    ledger.apply(payout(ledger));
    expect(() => payout(ledger, { amount: 7000 })).toThrow(ConflictError);
    expect(() => payout(ledger, { walletId: 'other' })).toThrow(ConflictError);
  });

  it('refuses without a mobile money number, beyond the available balance, an unknown wallet, no amount or reason', () => {
    const ledger = given();
    expect(() => payout(ledger, {}, null)).toThrow(BusinessRuleError);
    expect(() => payout(ledger, {}, '  ')).toThrow(BusinessRuleError);
    expect(() => payout(ledger, { amount: 10_001 })).toThrow(
      expect.objectContaining({ statusCode: 422, data: { missingAmount: 1 } }),
    );
    expect(() => payout(ledger, { walletId: 'ghost' })).toThrow(NotFoundError);
    expect(() => payout(ledger, { amount: 0 })).toThrow(ValidationError);
    expect(() => payout(ledger, { reason: ' ' })).toThrow(ValidationError);
    expect(ledger.wallet('grower').balance).toBe(10_000);
  });
});
