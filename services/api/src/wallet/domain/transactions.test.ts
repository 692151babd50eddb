import { describe, expect, it } from 'vitest';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { captureHold, placeHold } from './holds.js';
import { givenWallet } from './test-fixtures.js';
import { finance, transfer } from './transfer.js';
import { transactionEffects } from './transactions.js';
import { completeWithdrawal, failWithdrawal, requestWithdrawal } from './withdrawal.js';

function given() {
  const ledger = new InMemoryWalletLedger();
  const a = givenWallet(ledger, 'a', 10_000);
  givenWallet(ledger, 'b');
  return { ledger, a };
}

const effectsOf = (ledger: InMemoryWalletLedger, streamId: string) =>
  ledger.events(streamId).flatMap(transactionEffects);

describe('transactionEffects (operationType and status for the read side)', () => {
  it('a credited supply is SUPPLY SUCCESS; opening and initiating record nothing', () => {
    const { ledger } = given();
    expect(effectsOf(ledger, 'wallet-a')).toEqual([
      expect.objectContaining({
        kind: 'create',
        operationType: 'SUPPLY',
        status: 'SUCCESS',
        amount: 10_000,
        direction: 'IN',
      }),
    ]);
  });

  it('a transfer is TRANSFER SUCCESS for both wallets; a financing is STANDARD', () => {
    const { ledger, a } = given();
    const recipient = {
      userId: 'u-b',
      role: 'ROLE_INDUSTRIAL',
      clusterId: 'c1',
      status: 'ACTIVE' as const,
    };
    const states = () => ({ source: ledger.wallet('a'), destination: ledger.wallet('b') });
    ledger.apply(
      transfer(
        states(),
        {
          reference: 'T',
          sourceWalletId: 'a',
          destinationWalletId: 'b',
          amount: 10,
          reason: 'Motif',
        },
        a,
        { recipient },
      ),
    );
    ledger.apply(
      finance(
        states(),
        { reference: 'F', sourceWalletId: 'a', destinationWalletId: 'b', amount: 20 },
        a,
        { recipient },
      ),
    );
    expect(effectsOf(ledger, 'wallet-b')).toEqual([
      expect.objectContaining({
        operationType: 'TRANSFER',
        status: 'SUCCESS',
        direction: 'IN',
        counterpartyWalletId: 'a',
        reason: 'Motif',
      }),
      expect.objectContaining({
        operationType: 'STANDARD',
        status: 'SUCCESS',
        direction: 'IN',
        amount: 20,
      }),
    ]);
    expect(
      effectsOf(ledger, 'wallet-a')
        .slice(1)
        .map((e) => e.kind === 'create' && [e.operationType, e.direction]),
    ).toEqual([
      ['TRANSFER', 'OUT'],
      ['STANDARD', 'OUT'],
    ]);
  });

  it('a withdrawal is DEBIT PENDING, then SUCCESS; a failed one is DEBIT FAILED plus REFUND SUCCESS', () => {
    const { ledger, a } = given();
    for (const id of ['W1', 'W2']) {
      ledger.apply(
        requestWithdrawal(
          { wallet: ledger.wallet('a'), withdrawal: ledger.withdrawal(id) },
          { withdrawalId: id, walletId: 'a', method: 'MOBILE_MONEY', amount: 100 },
          a,
          {
            destination: '+2290197000000',
          },
        ),
      );
    }
    ledger.apply(
      completeWithdrawal(ledger.withdrawal('W1'), { withdrawalId: 'W1' }, { bankCode: 'BOA' }),
    );
    ledger.apply(
      failWithdrawal(
        { withdrawal: ledger.withdrawal('W2'), wallet: ledger.wallet('a') },
        { withdrawalId: 'W2' },
      ),
    );
    const all = [
      ...effectsOf(ledger, 'wallet-a'),
      ...effectsOf(ledger, 'withdrawal-W1'),
      ...effectsOf(ledger, 'withdrawal-W2'),
    ];
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: 'withdrawal:W1',
          operationType: 'DEBIT',
          status: 'PENDING',
        }),
        { kind: 'status', key: 'withdrawal:W1', status: 'SUCCESS' },
        { kind: 'status', key: 'withdrawal:W2', status: 'FAILED' },
        expect.objectContaining({
          key: 'refund:W2',
          operationType: 'REFUND',
          status: 'SUCCESS',
          direction: 'IN',
        }),
      ]),
    );
  });

  it('a captured hold is a STANDARD payment; placing a hold records nothing', () => {
    const { ledger } = given();
    ledger.apply(placeHold(ledger.wallet('a'), { holdId: 'H', amount: 50, purpose: 'Contrat' }));
    ledger.apply(
      captureHold(
        { wallet: ledger.wallet('a'), destinations: { b: ledger.wallet('b') } },
        { holdId: 'H', payments: [{ walletId: 'b', amount: 50 }] },
      ),
    );
    expect(effectsOf(ledger, 'wallet-b')).toEqual([
      expect.objectContaining({ operationType: 'STANDARD', amount: 50, direction: 'IN' }),
    ]);
    expect(effectsOf(ledger, 'wallet-a').at(-1)).toEqual(
      expect.objectContaining({
        operationType: 'STANDARD',
        direction: 'OUT',
        counterpartyWalletId: 'b',
      }),
    );
  });
});
