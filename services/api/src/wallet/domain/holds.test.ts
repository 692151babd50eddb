import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import { balancesByAccount } from './accounts.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { captureHold, placeHold, releaseHold } from './holds.js';
import { givenWallet } from './test-fixtures.js';

function given() {
  const ledger = new InMemoryWalletLedger();
  givenWallet(ledger, 'agg', 10_000);
  givenWallet(ledger, 'grower');
  givenWallet(ledger, 'provider');
  ledger.apply(
    placeHold(ledger.wallet('agg'), { holdId: 'H1', amount: 6000, purpose: 'Contrat C1' }),
  );
  return ledger;
}

const capture = (ledger: InMemoryWalletLedger, payments: { walletId: string; amount: number }[]) =>
  captureHold(
    {
      wallet: ledger.wallet('agg'),
      destinations: Object.fromEntries(
        payments.map((p) => [p.walletId, ledger.wallet(p.walletId)]),
      ),
    },
    { holdId: 'H1', payments },
  );

describe('holds', () => {
  it('placing a hold keeps the balance and lowers the available balance', () => {
    const ledger = given();
    expect(ledger.wallet('agg')).toMatchObject({
      balance: 10_000,
      held: 6000,
      availableBalance: 4000,
    });
  });

  it('refuses a hold beyond the available balance (422, missing amount) and a reused id', () => {
    const ledger = given();
    expect(() =>
      placeHold(ledger.wallet('agg'), { holdId: 'H2', amount: 4001, purpose: 'x' }),
    ).toThrow(expect.objectContaining({ statusCode: 422, data: { missingAmount: 1 } }));
    expect(() =>
      placeHold(ledger.wallet('agg'), { holdId: 'H1', amount: 1, purpose: 'x' }),
    ).toThrow(ConflictError);
    expect(() =>
      placeHold(ledger.wallet('agg'), { holdId: 'H3', amount: -1, purpose: 'x' }),
    ).toThrow(ValidationError);
  });

  it('releasing frees the amount; twice is a no-op; capture after release is refused', () => {
    const ledger = given();
    ledger.apply(releaseHold(ledger.wallet('agg'), { holdId: 'H1' }));
    expect(ledger.wallet('agg')).toMatchObject({ balance: 10_000, availableBalance: 10_000 });
    expect(releaseHold(ledger.wallet('agg'), { holdId: 'H1' }).writes).toEqual([]);
    expect(() => capture(ledger, [{ walletId: 'grower', amount: 6000 }])).toThrow(
      BusinessRuleError,
    );
    expect(() => releaseHold(ledger.wallet('agg'), { holdId: 'nope' })).toThrow(NotFoundError);
  });

  it('capture pays the given wallets (advance first to the provider, rest to the grower)', () => {
    const ledger = given();
    const decision = capture(ledger, [
      { walletId: 'provider', amount: 1500 },
      { walletId: 'grower', amount: 4500 },
    ]);
    expect(decision.writes.map((w) => w.streamId)).toEqual([
      'wallet-agg',
      'wallet-provider',
      'wallet-grower',
    ]);
    ledger.apply(decision);
    expect(ledger.wallet('agg')).toMatchObject({ balance: 4000, held: 0, availableBalance: 4000 });
    expect(ledger.wallet('grower').balance).toBe(4500);
    expect(ledger.wallet('provider').balance).toBe(1500);
    expect(balancesByAccount(ledger.postings()).get('wallet:agg')).toBe(4000);
    expect(capture(ledger, [{ walletId: 'grower', amount: 6000 }]).writes).toEqual([]);
    expect(() => releaseHold(ledger.wallet('agg'), { holdId: 'H1' })).toThrow(BusinessRuleError);
  });

  it('capture payments must sum to the hold, go to other open wallets', () => {
    const ledger = given();
    expect(() => capture(ledger, [{ walletId: 'grower', amount: 5999 }])).toThrow(ValidationError);
    expect(() => capture(ledger, [])).toThrow(ValidationError);
    expect(() => capture(ledger, [{ walletId: 'agg', amount: 6000 }])).toThrow(ValidationError);
    expect(() => capture(ledger, [{ walletId: 'ghost', amount: 6000 }])).toThrow(NotFoundError);
  });
});
