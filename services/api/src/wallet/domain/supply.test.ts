import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import {
  cancelSupply,
  expireSupply,
  failSupply,
  initiateSupply,
  markSupplyPending,
  rejectBankSupply,
  validateBankSupply,
  verifySupply,
  type ProviderVerification,
} from './supply.js';
import { actorOf, bank, givenWallet, superAdmin } from './test-fixtures.js';
import { balancesByAccount } from './accounts.js';
import { systemActor } from './decision.js';

function givenSupply(method: 'MOBILE_MONEY' | 'CARD' | 'BANK', amount = 5000) {
  const ledger = new InMemoryWalletLedger();
  const owner = givenWallet(ledger, 'w1');
  const result = ledger.apply(
    initiateSupply(
      { wallet: ledger.wallet('w1'), supply: ledger.supply('REF1') },
      { reference: 'REF1', walletId: 'w1', method, amount },
      owner,
      { bank },
    ),
  );
  return { ledger, owner, result };
}

const ok: ProviderVerification = {
  status: 'SUCCESS',
  amount: 5000,
  reference: 'REF1',
  transactionId: 'tx-1',
};

function verify(ledger: InMemoryWalletLedger, verification = ok, actor = systemActor) {
  return verifySupply(
    { supply: ledger.supply('REF1'), wallet: ledger.wallet('w1') },
    { reference: 'REF1' },
    actor,
    { verification },
  );
}

describe('initiateSupply', () => {
  it('mobile money: issues the reference (INIT) and no bank account', () => {
    const { ledger, result } = givenSupply('MOBILE_MONEY');
    expect(result).toEqual({ reference: 'REF1', bankAccountNumber: null, bankName: null });
    expect(ledger.supply('REF1')).toMatchObject({
      status: 'INIT',
      amount: 5000,
      walletId: 'w1',
      method: 'MOBILE_MONEY',
    });
    expect(ledger.wallet('w1').balance).toBe(0);
  });

  it('mobile money: keeps the payer’s number for the widget; a bank supply has none', () => {
    const ledger = new InMemoryWalletLedger();
    const owner = givenWallet(ledger, 'w1');
    for (const [reference, method] of [
      ['M1', 'MOBILE_MONEY'],
      ['B1', 'BANK'],
    ] as const) {
      ledger.apply(
        initiateSupply(
          { wallet: ledger.wallet('w1'), supply: ledger.supply(reference) },
          { reference, walletId: 'w1', method, amount: 100, payerPhone: '+2290196000000' },
          owner,
          { bank },
        ),
      );
    }
    expect(ledger.supply('M1').payerPhone).toBe('+2290196000000');
    expect(ledger.supply('B1').payerPhone).toBeNull();
  });

  it('bank: answers the accepted bank account number to write on the slip', () => {
    const { result, ledger } = givenSupply('BANK');
    expect(result.bankAccountNumber).toBe(bank.accountNumber);
    expect(ledger.supply('REF1')).toMatchObject({ status: 'INIT', bankCode: 'BOA' });
  });

  it('refuses another user’s wallet, a reused reference and bad amounts', () => {
    const { ledger, owner } = givenSupply('CARD');
    const states = { wallet: ledger.wallet('w1'), supply: ledger.supply('REF1') };
    const cmd = { reference: 'REF1', walletId: 'w1', method: 'CARD' as const, amount: 10 };
    expect(() => initiateSupply(states, cmd, actorOf('w2'), { bank })).toThrow(ForbiddenError);
    expect(() => initiateSupply(states, cmd, owner, { bank })).toThrow(ConflictError);
    for (const amount of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() =>
        initiateSupply(
          { ...states, supply: ledger.supply('X') },
          { ...cmd, reference: 'X', amount },
          owner,
          { bank },
        ),
      ).toThrow(ValidationError);
    }
  });

  it('refuses a wallet that was never opened', () => {
    const ledger = new InMemoryWalletLedger();
    expect(() =>
      initiateSupply(
        { wallet: ledger.wallet('nope'), supply: ledger.supply('R') },
        { reference: 'R', walletId: 'nope', method: 'CARD', amount: 1 },
        actorOf('nope'),
        { bank },
      ),
    ).toThrow(NotFoundError);
  });
});

describe('markSupplyPending', () => {
  it('INIT becomes PENDING; a second call changes nothing', () => {
    const { ledger, owner } = givenSupply('MOBILE_MONEY');
    ledger.apply(markSupplyPending(ledger.supply('REF1'), { reference: 'REF1' }, owner));
    expect(ledger.supply('REF1').status).toBe('PENDING');
    expect(markSupplyPending(ledger.supply('REF1'), { reference: 'REF1' }, owner).writes).toEqual(
      [],
    );
  });

  it('only the owner (or the system) may mark it', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    expect(() =>
      markSupplyPending(ledger.supply('REF1'), { reference: 'REF1' }, actorOf('w2')),
    ).toThrow(ForbiddenError);
  });
});

describe('verifySupply', () => {
  it('given a provider SUCCESS with same amount and reference, credits the wallet once', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    const first = ledger.apply(verify(ledger));
    expect(first).toEqual({ reference: 'REF1', status: 'SUCCESS', credited: true });
    expect(ledger.wallet('w1')).toMatchObject({ balance: 5000, availableBalance: 5000 });
    expect(ledger.supply('REF1')).toMatchObject({
      status: 'SUCCESS',
      providerTransactionId: 'tx-1',
    });
    const again = verify(ledger);
    expect(again.writes).toEqual([]);
    expect(again.result.credited).toBe(false);
    expect(ledger.wallet('w1').balance).toBe(5000);
    const balances = balancesByAccount(ledger.postings());
    expect(balances.get('clearing:MOBILE_MONEY')).toBe(-5000);
    expect(balances.get('wallet:w1')).toBe(5000);
  });

  it('card supplies post against card clearing', () => {
    const { ledger } = givenSupply('CARD');
    ledger.apply(verify(ledger));
    expect(balancesByAccount(ledger.postings()).get('clearing:CARD')).toBe(-5000);
  });

  it('a transaction id already credited to this wallet credits nothing', () => {
    const { ledger, owner } = givenSupply('MOBILE_MONEY');
    ledger.apply(verify(ledger));
    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet('w1'), supply: ledger.supply('REF2') },
        { reference: 'REF2', walletId: 'w1', method: 'MOBILE_MONEY', amount: 5000 },
        owner,
        { bank },
      ),
    );
    const d = verifySupply(
      { supply: ledger.supply('REF2'), wallet: ledger.wallet('w1') },
      { reference: 'REF2' },
      systemActor,
      {
        verification: { ...ok, reference: 'REF2' },
      },
    );
    expect(d.writes).toEqual([]);
  });

  it('amount mismatch fails the supply without credit', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    const result = ledger.apply(verify(ledger, { ...ok, amount: 4999 }));
    expect(result.status).toBe('FAILED');
    expect(ledger.supply('REF1').failureReason).toBe('Montant de la transaction différent');
    expect(ledger.wallet('w1').balance).toBe(0);
  });

  it('a transaction for another reference is refused (422) and changes nothing', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    for (const status of ['SUCCESS', 'FAILED', 'PENDING'] as const) {
      expect(() => verify(ledger, { ...ok, status, reference: 'OTHER' })).toThrow(
        BusinessRuleError,
      );
    }
    expect(() => verify(ledger, { ...ok, status: 'FAILED', reference: '' })).toThrow(
      BusinessRuleError,
    );
    expect(ledger.supply('REF1').status).toBe('INIT');
    expect(ledger.wallet('w1').balance).toBe(0);
    expect(ledger.apply(verify(ledger)).credited).toBe(true);
  });

  it('provider FAILED fails the supply; a later SUCCESS answer changes nothing', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    ledger.apply(verify(ledger, { ...ok, status: 'FAILED' }));
    expect(ledger.supply('REF1').status).toBe('FAILED');
    expect(verify(ledger).writes).toEqual([]);
  });

  it('provider PENDING moves INIT to PENDING and credits nothing (retried later)', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    expect(ledger.apply(verify(ledger, { ...ok, status: 'PENDING' })).status).toBe('PENDING');
    expect(ledger.supply('REF1').status).toBe('PENDING');
    expect(verify(ledger, { ...ok, status: 'PENDING' }).writes).toEqual([]);
    ledger.apply(verify(ledger));
    expect(ledger.wallet('w1').balance).toBe(5000);
  });

  it('a bank supply cannot be verified through a provider', () => {
    const { ledger } = givenSupply('BANK');
    expect(() => verify(ledger)).toThrow(BusinessRuleError);
  });

  it('an unknown reference is 404', () => {
    const ledger = new InMemoryWalletLedger();
    givenWallet(ledger, 'w1');
    expect(() => verify(ledger)).toThrow(NotFoundError);
  });
});

describe('failSupply', () => {
  it('INIT or PENDING becomes FAILED; again is a no-op; SUCCESS cannot fail', () => {
    const { ledger, owner } = givenSupply('MOBILE_MONEY');
    ledger.apply(failSupply(ledger.supply('REF1'), { reference: 'REF1', reason: 'Annulé' }, owner));
    expect(ledger.supply('REF1')).toMatchObject({ status: 'FAILED', failureReason: 'Annulé' });
    expect(failSupply(ledger.supply('REF1'), { reference: 'REF1' }, owner).writes).toEqual([]);

    const other = givenSupply('CARD');
    other.ledger.apply(verify(other.ledger));
    expect(() =>
      failSupply(other.ledger.supply('REF1'), { reference: 'REF1' }, other.owner),
    ).toThrow(BusinessRuleError);
  });
});

describe('validateBankSupply', () => {
  const validate = (ledger: InMemoryWalletLedger, retypedReference = 'REF1', actor = superAdmin) =>
    validateBankSupply(
      { supply: ledger.supply('REF1'), wallet: ledger.wallet('w1') },
      { reference: 'REF1', retypedReference },
      actor,
    );

  it('a super admin retyping the reference exactly credits the wallet from the bank account, once', () => {
    const { ledger } = givenSupply('BANK');
    expect(ledger.apply(validate(ledger))).toEqual({
      reference: 'REF1',
      status: 'SUCCESS',
      credited: true,
    });
    expect(ledger.wallet('w1').balance).toBe(5000);
    expect(balancesByAccount(ledger.postings()).get('bank:BOA')).toBe(-5000);
    const again = validate(ledger);
    expect(again.writes).toEqual([]);
    expect(again.result.credited).toBe(false);
  });

  it('works from PENDING too', () => {
    const { ledger } = givenSupply('BANK');
    // bank supplies stay INIT when marked pending by the widget path; simulate an admin-side PENDING
    ledger.apply({
      writes: [
        {
          streamId: 'supply-REF1',
          events: [{ type: 'SupplyMarkedPending', data: { reference: 'REF1' } }],
        },
      ],
      result: null,
    });
    expect(ledger.apply(validate(ledger)).credited).toBe(true);
  });

  it('refuses anyone but a super admin', () => {
    const { ledger, owner } = givenSupply('BANK');
    expect(() => validate(ledger, 'REF1', owner)).toThrow(ForbiddenError);
    expect(() => validate(ledger, 'REF1', actorOf('w9', 'ROLE_ADMIN'))).toThrow(ForbiddenError);
  });

  it('refuses a reference that is not retyped exactly', () => {
    const { ledger } = givenSupply('BANK');
    for (const typed of ['ref1', 'REF1 ', ' REF1', 'REF', '']) {
      expect(() => validate(ledger, typed)).toThrow(ValidationError);
    }
    expect(ledger.wallet('w1').balance).toBe(0);
  });

  it('refuses a FAILED supply and a non-bank supply', () => {
    const { ledger, owner } = givenSupply('BANK');
    ledger.apply(failSupply(ledger.supply('REF1'), { reference: 'REF1' }, owner));
    expect(() => validate(ledger)).toThrow(BusinessRuleError);
    const momo = givenSupply('MOBILE_MONEY');
    expect(() => validate(momo.ledger)).toThrow(BusinessRuleError);
  });
});

describe('cancelSupply', () => {
  const cancel = (ledger: InMemoryWalletLedger, actor: Parameters<typeof cancelSupply>[2]) =>
    cancelSupply(ledger.supply('REF1'), { reference: 'REF1' }, actor);

  it('given an INIT mobile-money supply, its payer cancels it: FAILED (cancelled); again changes nothing', () => {
    const { ledger, owner } = givenSupply('MOBILE_MONEY');
    expect(ledger.apply(cancel(ledger, owner))).toEqual({
      reference: 'REF1',
      status: 'FAILED',
      credited: false,
    });
    expect(ledger.supply('REF1')).toMatchObject({ status: 'FAILED', failureKind: 'CANCELLED' });
    expect(ledger.events('supply-REF1').at(-1)).toEqual({
      type: 'SupplyCancelled',
      data: { reference: 'REF1', cancelledBy: owner.userId },
    });
    expect(cancel(ledger, owner).writes).toEqual([]);
    expect(ledger.wallet('w1').balance).toBe(0);
  });

  it('refuses anyone but the payer, even a super admin', () => {
    const { ledger } = givenSupply('CARD');
    expect(() => cancel(ledger, actorOf('w2'))).toThrow(ForbiddenError);
    expect(() => cancel(ledger, superAdmin)).toThrow(ForbiddenError);
    expect(ledger.supply('REF1').status).toBe('INIT');
  });

  it('refuses a PENDING supply (being verified), a credited one and a bank one (422)', () => {
    const pending = givenSupply('MOBILE_MONEY');
    pending.ledger.apply(
      markSupplyPending(pending.ledger.supply('REF1'), { reference: 'REF1' }, pending.owner),
    );
    expect(() => cancel(pending.ledger, pending.owner)).toThrow(/en cours de vérification/);

    const credited = givenSupply('MOBILE_MONEY');
    credited.ledger.apply(verify(credited.ledger));
    expect(() => cancel(credited.ledger, credited.owner)).toThrow(/déjà été crédité/);

    const slip = givenSupply('BANK');
    expect(() => cancel(slip.ledger, slip.owner)).toThrow(BusinessRuleError);
    expect(slip.ledger.supply('REF1').status).toBe('INIT');
  });

  it('a cancelled supply the provider proves paid (same amount and reference) is credited once', () => {
    const { ledger, owner } = givenSupply('MOBILE_MONEY');
    ledger.apply(cancel(ledger, owner));
    expect(verify(ledger, { ...ok, status: 'FAILED' }).writes).toEqual([]);
    expect(verify(ledger, { ...ok, amount: 1 }).writes).toEqual([]);
    expect(ledger.apply(verify(ledger))).toEqual({
      reference: 'REF1',
      status: 'SUCCESS',
      credited: true,
    });
    expect(ledger.supply('REF1')).toMatchObject({ status: 'SUCCESS', failureKind: null });
    expect(ledger.wallet('w1').balance).toBe(5000);
    expect(verify(ledger).writes).toEqual([]);
  });
});

describe('expireSupply', () => {
  const reason =
    'Aucun paiement reçu du fournisseur dans les 30 minutes : approvisionnement abandonné';
  const expire = (ledger: InMemoryWalletLedger, actor: Parameters<typeof expireSupply>[2]) =>
    expireSupply(ledger.supply('REF1'), { reference: 'REF1', reason }, actor);

  it('the system gives up an INIT or PENDING mobile-money supply: FAILED (expired) with its reason, once', () => {
    for (const pending of [false, true]) {
      const { ledger, owner } = givenSupply('MOBILE_MONEY');
      if (pending)
        ledger.apply(markSupplyPending(ledger.supply('REF1'), { reference: 'REF1' }, owner));
      expect(ledger.apply(expire(ledger, systemActor))).toEqual({
        reference: 'REF1',
        status: 'FAILED',
        credited: false,
      });
      expect(ledger.supply('REF1')).toMatchObject({
        status: 'FAILED',
        failureKind: 'EXPIRED',
        failureReason: reason,
      });
      expect(expire(ledger, systemActor).writes).toEqual([]);
    }
  });

  it('only the system; a credited or bank supply is left as it is', () => {
    const { ledger, owner } = givenSupply('MOBILE_MONEY');
    expect(() => expire(ledger, owner)).toThrow(ForbiddenError);
    expect(() => expire(ledger, superAdmin)).toThrow(ForbiddenError);
    ledger.apply(verify(ledger));
    expect(expire(ledger, systemActor).writes).toEqual([]);
    const slip = givenSupply('BANK');
    expect(expire(slip.ledger, systemActor).writes).toEqual([]);
  });

  it('a supply given up that the provider proves paid (same amount and reference) is credited once', () => {
    const { ledger } = givenSupply('MOBILE_MONEY');
    ledger.apply(expire(ledger, systemActor));
    expect(verify(ledger, { ...ok, status: 'FAILED' }).writes).toEqual([]);
    expect(verify(ledger, { ...ok, amount: 1 }).writes).toEqual([]);
    expect(ledger.apply(verify(ledger))).toMatchObject({ status: 'SUCCESS', credited: true });
    expect(ledger.supply('REF1')).toMatchObject({ status: 'SUCCESS', failureKind: null });
    expect(ledger.wallet('w1').balance).toBe(5000);
    expect(verify(ledger).writes).toEqual([]);
  });
});

describe('rejectBankSupply', () => {
  const reject = (
    ledger: InMemoryWalletLedger,
    reason = 'Aucun virement reçu',
    actor = superAdmin,
  ) => rejectBankSupply(ledger.supply('REF1'), { reference: 'REF1', reason }, actor);

  it('given an INIT bank supply, a super admin rejects it with a reason: FAILED (rejected), nothing credited', () => {
    const { ledger } = givenSupply('BANK');
    expect(ledger.apply(reject(ledger, '  Aucun virement reçu  '))).toEqual({
      reference: 'REF1',
      status: 'FAILED',
      credited: false,
    });
    expect(ledger.supply('REF1')).toMatchObject({
      status: 'FAILED',
      failureKind: 'REJECTED',
      failureReason: 'Aucun virement reçu',
    });
    expect(ledger.events('supply-REF1').at(-1)).toEqual({
      type: 'SupplyRejected',
      data: { reference: 'REF1', reason: 'Aucun virement reçu', rejectedBy: superAdmin.userId },
    });
    expect(reject(ledger).writes).toEqual([]);
    expect(ledger.wallet('w1').balance).toBe(0);
  });

  it('a rejected supply can no longer be validated (422)', () => {
    const { ledger } = givenSupply('BANK');
    ledger.apply(reject(ledger));
    expect(() =>
      validateBankSupply(
        { supply: ledger.supply('REF1'), wallet: ledger.wallet('w1') },
        { reference: 'REF1', retypedReference: 'REF1' },
        superAdmin,
      ),
    ).toThrow('Cet approvisionnement a été rejeté : il ne peut plus être validé');
    expect(ledger.wallet('w1').balance).toBe(0);
  });

  it('a validated supply can no longer be rejected (422)', () => {
    const { ledger } = givenSupply('BANK');
    ledger.apply(
      validateBankSupply(
        { supply: ledger.supply('REF1'), wallet: ledger.wallet('w1') },
        { reference: 'REF1', retypedReference: 'REF1' },
        superAdmin,
      ),
    );
    expect(() => reject(ledger)).toThrow(
      'Cet approvisionnement a déjà été validé : il ne peut plus être rejeté',
    );
    expect(ledger.supply('REF1').status).toBe('SUCCESS');
  });

  it('refuses anyone but a super admin, a blank reason (400) and a mobile-money supply', () => {
    const { ledger, owner } = givenSupply('BANK');
    expect(() => reject(ledger, 'x', owner)).toThrow(ForbiddenError);
    expect(() => reject(ledger, 'x', actorOf('w9', 'ROLE_ADMIN'))).toThrow(ForbiddenError);
    expect(() => reject(ledger, '   ')).toThrow(ValidationError);
    const momo = givenSupply('MOBILE_MONEY');
    expect(() => reject(momo.ledger)).toThrow(BusinessRuleError);
    expect(ledger.supply('REF1').status).toBe('INIT');
  });
});
