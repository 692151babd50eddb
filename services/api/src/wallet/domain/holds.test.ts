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
import { evolveWallet, initialWalletState, type WalletState } from './wallet-stream.js';
import { walletEvent } from './events.js';

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

  it('a hold event leaves the state it evolved from as it was (the pipeline keeps cached states)', () => {
    // The pipeline evolves cached states speculatively; a batch that fails to commit must
    // leave them usable: the hold book is persistent, never changed in place.
    const ledger = given();
    const before: WalletState = ledger.wallet('agg');
    const placed = evolveWallet(
      before,
      walletEvent('HoldPlaced', { holdId: 'H2', walletId: 'agg', amount: 1000, purpose: 'x' }),
    );
    const released = evolveWallet(
      placed,
      walletEvent('HoldReleased', { holdId: 'H1', walletId: 'agg', amount: 6000 }),
    );
    expect(placed.holds.get('H2')).toMatchObject({ status: 'ACTIVE', remaining: 1000 });
    expect(released.holds.get('H1')).toMatchObject({ status: 'RELEASED', remaining: 0 });
    expect(before.holds.has('H2')).toBe(false);
    expect(before.holds.get('H1')).toMatchObject({ status: 'ACTIVE', remaining: 6000 });
    expect(placed.holds.get('H1')).toMatchObject({ status: 'ACTIVE', remaining: 6000 });
    expect(before).toMatchObject({ held: 6000, availableBalance: 4000 });
    // The earlier state still decides as before: H2 may be placed on it, H1 captured.
    expect(placeHold(before, { holdId: 'H2', amount: 1000, purpose: 'x' }).writes).toHaveLength(1);
    expect(() => placeHold(placed, { holdId: 'H2', amount: 1000, purpose: 'x' })).toThrow(
      ConflictError,
    );
    expect(() =>
      captureHold({ wallet: released, destinations: {} }, { holdId: 'H1', payments: [] }),
    ).toThrow(BusinessRuleError);
  });

  it('every hold it ever had stays in the book: closed ones refuse again, at any count', () => {
    let wallet = evolveWallet(
      initialWalletState(),
      walletEvent('WalletOpened', { walletId: 'agg', ownerUserId: 'u-agg' }),
    );
    for (let i = 0; i < 2000; i++) {
      wallet = evolveWallet(
        wallet,
        walletEvent('HoldPlaced', { holdId: `H${i}`, walletId: 'agg', amount: 0, purpose: 'x' }),
      );
      if (i % 2 === 0)
        wallet = evolveWallet(
          wallet,
          walletEvent('HoldReleased', { holdId: `H${i}`, walletId: 'agg', amount: 0 }),
        );
    }
    expect(wallet.holds.size).toBe(2000);
    expect([...wallet.holds.values()].filter((h) => h.status === 'RELEASED')).toHaveLength(1000);
    expect(() => placeHold(wallet, { holdId: 'H10', amount: 1, purpose: 'x' })).toThrow(
      ConflictError,
    );
    expect(releaseHold(wallet, { holdId: 'H10' }).writes).toEqual([]);
    expect(releaseHold(wallet, { holdId: 'H11' }).writes).toHaveLength(1);
  });
});
