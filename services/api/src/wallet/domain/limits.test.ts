import { describe, expect, it } from 'vitest';
import { BusinessRuleError, parseConfig } from '@filiere/platform';
import { captureHold, placeHold } from './holds.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { DEFAULT_AMOUNT_LIMITS, formatFcfa, type AmountLimits } from './limits.js';
import { initiateSupply, validateBankSupply, verifySupply } from './supply.js';
import { bank, givenWallet, superAdmin } from './test-fixtures.js';
import { finance, transfer, type Recipient } from './transfer.js';
import { requestWithdrawal } from './withdrawal.js';

/** Small ceilings for the specs: one command moves at most 6,000; a wallet holds 10,000. */
const limits: AmountLimits = { maxCommandAmount: 6_000, maxBalance: 10_000 };

const ABOVE_COMMAND = `Le montant dépasse le maximum autorisé par opération (${formatFcfa(6_000)})`;
const ceiling = (start: string) => `${start} au-delà du plafond de ${formatFcfa(10_000)}`;

/** 422 with `message` and the maximum in its data. */
function expectRefused(decide: () => unknown, message: string, data: Record<string, unknown>) {
  try {
    decide();
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect((error as BusinessRuleError).message).toBe(message);
    expect((error as BusinessRuleError).data).toMatchObject(data);
  }
}

const recipient = (userId: string, role = 'ROLE_INDUSTRIAL'): Recipient => ({
  userId,
  role,
  clusterId: 'c1',
  status: 'ACTIVE',
});

function given() {
  const ledger = new InMemoryWalletLedger();
  const alice = givenWallet(ledger, 'a', 6_000);
  const bob = givenWallet(ledger, 'b', 6_000);
  return { ledger, alice, bob };
}

describe('amount ceilings (MAX_COMMAND_AMOUNT, MAX_BALANCE)', () => {
  it('the defaults: 100,000,000 F CFA a command, 10,000,000,000 F CFA a wallet', () => {
    expect(DEFAULT_AMOUNT_LIMITS).toEqual({
      maxCommandAmount: 100_000_000,
      maxBalance: 10_000_000_000,
    });
    expect(formatFcfa(100_000_000)).toBe('100\u202f000\u202f000 F CFA');
  });

  it('given a wallet, a supply above the command maximum is refused (422 naming it)', () => {
    const { ledger, alice } = given();
    expectRefused(
      () =>
        initiateSupply(
          { wallet: ledger.wallet('a'), supply: ledger.supply('S') },
          { reference: 'S', walletId: 'a', method: 'BANK', amount: 6_001 },
          alice,
          { bank, limits },
        ),
      ABOVE_COMMAND,
      { reason: 'AMOUNT_ABOVE_MAXIMUM', maxAmount: 6_000 },
    );
    expect(ledger.supply('S').exists).toBe(false);
  });

  it('given a balance of 6,000, a supply of 4,001 is refused at once; 4,000 is issued', () => {
    const { ledger, alice } = given();
    const supply = (reference: string, amount: number) =>
      initiateSupply(
        { wallet: ledger.wallet('a'), supply: ledger.supply(reference) },
        { reference, walletId: 'a', method: 'BANK', amount },
        alice,
        { bank, limits },
      );
    expectRefused(
      () => supply('S1', 4_001),
      ceiling('Cette opération porterait le solde de votre portefeuille'),
      { reason: 'BALANCE_ABOVE_MAXIMUM', maxBalance: 10_000 },
    );
    expect(ledger.apply(supply('S2', 4_000)).reference).toBe('S2');
  });

  it('given two supplies issued while there was room, crediting the second past the ceiling is refused and leaves it INIT', () => {
    const { ledger, alice } = given();
    for (const reference of ['S1', 'S2']) {
      ledger.apply(
        initiateSupply(
          { wallet: ledger.wallet('a'), supply: ledger.supply(reference) },
          { reference, walletId: 'a', method: 'BANK', amount: 3_000 },
          alice,
          { bank, limits },
        ),
      );
    }
    const validate = (reference: string) =>
      validateBankSupply(
        { supply: ledger.supply(reference), wallet: ledger.wallet('a') },
        { reference, retypedReference: reference },
        superAdmin,
        { limits },
      );
    ledger.apply(validate('S1'));
    expect(ledger.wallet('a').balance).toBe(9_000);
    expectRefused(() => validate('S2'), ceiling('Ce crédit porterait le solde du portefeuille'), {
      maxBalance: 10_000,
    });
    expect(ledger.supply('S2').status).toBe('INIT');
    expect(ledger.wallet('a').balance).toBe(9_000);
  });

  it('given a provider-verified payment that would pass the ceiling, the credit is refused and the supply stays as it was', () => {
    const { ledger, alice, bob } = given();
    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet('a'), supply: ledger.supply('M') },
        { reference: 'M', walletId: 'a', method: 'MOBILE_MONEY', amount: 4_000 },
        alice,
        { bank, limits },
      ),
    );
    ledger.apply(
      transfer(
        { source: ledger.wallet('b'), destination: ledger.wallet('a') },
        { reference: 'T', sourceWalletId: 'b', destinationWalletId: 'a', amount: 1, reason: 'x' },
        bob,
        { recipient: recipient('u-a'), limits },
      ),
    );
    expectRefused(
      () =>
        verifySupply(
          { supply: ledger.supply('M'), wallet: ledger.wallet('a') },
          { reference: 'M' },
          alice,
          {
            verification: { status: 'SUCCESS', amount: 4_000, reference: 'M', transactionId: 'tx' },
            limits,
          },
        ),
      ceiling('Ce crédit porterait le solde du portefeuille'),
      { maxBalance: 10_000 },
    );
    expect(ledger.supply('M').status).toBe('INIT');
  });

  it('a transfer or a financing above the command maximum, or filling the recipient past the ceiling, is refused', () => {
    const { ledger, alice } = given();
    const send = (amount: number) =>
      transfer(
        { source: ledger.wallet('a'), destination: ledger.wallet('b') },
        { reference: 'T', sourceWalletId: 'a', destinationWalletId: 'b', amount, reason: 'x' },
        alice,
        { recipient: recipient('u-b'), limits },
      );
    const fund = (amount: number) =>
      finance(
        { source: ledger.wallet('a'), destination: ledger.wallet('b') },
        { reference: 'F', sourceWalletId: 'a', destinationWalletId: 'b', amount },
        alice,
        { recipient: recipient('u-b'), limits },
      );
    expectRefused(() => send(6_001), ABOVE_COMMAND, { maxAmount: 6_000 });
    expectRefused(() => fund(6_001), ABOVE_COMMAND, { maxAmount: 6_000 });
    const full = ceiling('Cette opération porterait le solde du portefeuille du destinataire');
    expectRefused(() => send(4_001), full, { maxBalance: 10_000 });
    expectRefused(() => fund(4_001), full, { maxBalance: 10_000 });
    ledger.apply(send(4_000));
    expect(ledger.wallet('b').balance).toBe(10_000);
    expect(ledger.wallet('a').balance).toBe(2_000);
  });

  it('a withdrawal above the command maximum is refused', () => {
    const { ledger, alice, bob } = given();
    ledger.apply(
      transfer(
        { source: ledger.wallet('b'), destination: ledger.wallet('a') },
        {
          reference: 'T',
          sourceWalletId: 'b',
          destinationWalletId: 'a',
          amount: 4_000,
          reason: 'x',
        },
        bob,
        { recipient: recipient('u-a'), limits },
      ),
    );
    expect(ledger.wallet('a').balance).toBe(10_000);
    expectRefused(
      () =>
        requestWithdrawal(
          { wallet: ledger.wallet('a'), withdrawal: ledger.withdrawal('W') },
          { withdrawalId: 'W', walletId: 'a', method: 'MOBILE_MONEY', amount: 6_001 },
          alice,
          { destination: '+2290197000000', limits },
        ),
      ABOVE_COMMAND,
      { maxAmount: 6_000 },
    );
  });

  it('a hold above the command maximum, or captured into a full wallet, is refused', () => {
    const { ledger } = given();
    expectRefused(
      () =>
        placeHold(ledger.wallet('a'), { holdId: 'H', amount: 6_001, purpose: 'Contrat' }, limits),
      ABOVE_COMMAND,
      { maxAmount: 6_000 },
    );
    ledger.apply(
      placeHold(ledger.wallet('a'), { holdId: 'H', amount: 5_000, purpose: 'Contrat' }, limits),
    );
    expectRefused(
      () =>
        captureHold(
          { wallet: ledger.wallet('a'), destinations: { b: ledger.wallet('b') } },
          { holdId: 'H', payments: [{ walletId: 'b', amount: 5_000 }] },
          limits,
        ),
      ceiling('Cette opération porterait le solde du portefeuille du destinataire'),
      { maxBalance: 10_000 },
    );
  });
});

describe('MAX_COMMAND_AMOUNT and MAX_BALANCE settings', () => {
  it('default to 100,000,000 and 10,000,000,000 F CFA, and take integers up to 10^15', () => {
    expect(parseConfig({})).toMatchObject({
      MAX_COMMAND_AMOUNT: 100_000_000,
      MAX_BALANCE: 10_000_000_000,
    });
    expect(parseConfig({ MAX_COMMAND_AMOUNT: '5000', MAX_BALANCE: '1000000' })).toMatchObject({
      MAX_COMMAND_AMOUNT: 5_000,
      MAX_BALANCE: 1_000_000,
    });
  });

  it('refuse a bad value in one line naming the variable', () => {
    expect(() => parseConfig({ MAX_BALANCE: '2000000000000000' })).toThrow(
      'Invalid configuration: MAX_BALANCE must be at most 1000000000000000 (got "2000000000000000")',
    );
    expect(() => parseConfig({ MAX_COMMAND_AMOUNT: '12.5' })).toThrow(
      'Invalid configuration: MAX_COMMAND_AMOUNT must be an integer',
    );
    expect(() => parseConfig({ MAX_COMMAND_AMOUNT: '2000', MAX_BALANCE: '1000' })).toThrow(
      'Invalid configuration: MAX_COMMAND_AMOUNT must not exceed MAX_BALANCE (1000)',
    );
  });
});
