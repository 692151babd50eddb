import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  ValidationError,
} from '@filiere/platform';
import { balancesByAccount } from './accounts.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import {
  completeWithdrawal,
  failWithdrawal,
  requestWithdrawal,
  type RequestWithdrawal,
} from './withdrawal.js';
import { actorOf, givenWallet } from './test-fixtures.js';
import type { Actor } from './decision.js';

function given() {
  const ledger = new InMemoryWalletLedger();
  const owner = givenWallet(ledger, 'w', 10_000);
  return { ledger, owner };
}

function request(
  ledger: InMemoryWalletLedger,
  actor: Actor,
  overrides: Partial<RequestWithdrawal> = {},
  destination: string | null = '+2290197000000',
) {
  const cmd: RequestWithdrawal = {
    withdrawalId: 'W1',
    walletId: 'w',
    method: 'MOBILE_MONEY',
    amount: 3000,
    ...overrides,
  };
  return requestWithdrawal(
    { wallet: ledger.wallet('w'), withdrawal: ledger.withdrawal(cmd.withdrawalId) },
    cmd,
    actor,
    { destination },
  );
}

describe('requestWithdrawal', () => {
  it('debits at once into payout clearing, PENDING', () => {
    const { ledger, owner } = given();
    expect(ledger.apply(request(ledger, owner))).toMatchObject({
      status: 'PENDING',
      amount: 3000,
      destination: '+2290197000000',
    });
    expect(ledger.wallet('w')).toMatchObject({ balance: 7000, availableBalance: 7000 });
    expect(ledger.withdrawal('W1')).toMatchObject({ status: 'PENDING', method: 'MOBILE_MONEY' });
    expect(balancesByAccount(ledger.postings()).get('payout:MOBILE_MONEY')).toBe(3000);
  });

  it('refuses beyond the available balance with the missing amount', () => {
    const { ledger, owner } = given();
    expect(() => request(ledger, owner, { amount: 10_500 })).toThrow(
      expect.objectContaining({ data: { missingAmount: 500 } }),
    );
  });

  it('refuses another user’s wallet, a missing destination, a reused id, a bad method or amount', () => {
    const { ledger, owner } = given();
    expect(() => request(ledger, actorOf('x'))).toThrow(ForbiddenError);
    expect(() => request(ledger, owner, { method: 'BANK' }, null)).toThrow(BusinessRuleError);
    expect(() => request(ledger, owner, { method: 'CARD' as never })).toThrow(ValidationError);
    expect(() => request(ledger, owner, { amount: 0 })).toThrow(ValidationError);
    ledger.apply(request(ledger, owner));
    expect(() => request(ledger, owner)).toThrow(ConflictError);
  });
});

describe('completeWithdrawal', () => {
  it('SUCCESS settles payout clearing into the provider clearing account; again is a no-op', () => {
    const { ledger, owner } = given();
    ledger.apply(request(ledger, owner));
    ledger.apply(
      completeWithdrawal(
        ledger.withdrawal('W1'),
        { withdrawalId: 'W1', providerId: 'p-1' },
        { bankCode: 'BOA' },
      ),
    );
    expect(ledger.withdrawal('W1')).toMatchObject({ status: 'SUCCESS', providerId: 'p-1' });
    const balances = balancesByAccount(ledger.postings());
    expect(balances.get('payout:MOBILE_MONEY')).toBe(0);
    expect(balances.get('clearing:MOBILE_MONEY')).toBe(3000);
    expect(ledger.wallet('w').balance).toBe(7000);
    expect(
      completeWithdrawal(ledger.withdrawal('W1'), { withdrawalId: 'W1' }, { bankCode: 'BOA' })
        .writes,
    ).toEqual([]);
    expect(() =>
      failWithdrawal(
        { withdrawal: ledger.withdrawal('W1'), wallet: ledger.wallet('w') },
        { withdrawalId: 'W1' },
      ),
    ).toThrow(BusinessRuleError);
  });

  it('a bank payout settles into the bank account', () => {
    const { ledger, owner } = given();
    ledger.apply(request(ledger, owner, { method: 'BANK' }, 'BJ0001'));
    ledger.apply(
      completeWithdrawal(ledger.withdrawal('W1'), { withdrawalId: 'W1' }, { bankCode: 'BOA' }),
    );
    expect(balancesByAccount(ledger.postings()).get('bank:BOA')).toBe(-10_000 + 3000);
  });
});

describe('failWithdrawal', () => {
  it('FAILED with a REFUND posting back to the wallet; again is a no-op; cannot complete afterwards', () => {
    const { ledger, owner } = given();
    ledger.apply(request(ledger, owner));
    const decision = failWithdrawal(
      { withdrawal: ledger.withdrawal('W1'), wallet: ledger.wallet('w') },
      { withdrawalId: 'W1', reason: 'Numéro inconnu' },
    );
    expect(decision.writes.map((w) => w.events[0]!.type)).toEqual([
      'WithdrawalFailed',
      'WithdrawalRefunded',
    ]);
    ledger.apply(decision);
    expect(ledger.wallet('w')).toMatchObject({ balance: 10_000, availableBalance: 10_000 });
    expect(ledger.withdrawal('W1')).toMatchObject({
      status: 'FAILED',
      failureReason: 'Numéro inconnu',
    });
    expect(balancesByAccount(ledger.postings()).get('payout:MOBILE_MONEY')).toBe(0);
    expect(
      failWithdrawal(
        { withdrawal: ledger.withdrawal('W1'), wallet: ledger.wallet('w') },
        { withdrawalId: 'W1' },
      ).writes,
    ).toEqual([]);
    expect(() =>
      completeWithdrawal(ledger.withdrawal('W1'), { withdrawalId: 'W1' }, { bankCode: 'BOA' }),
    ).toThrow(BusinessRuleError);
  });
});
