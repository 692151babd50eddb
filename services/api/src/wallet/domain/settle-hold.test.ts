import { describe, expect, it } from 'vitest';
import { BusinessRuleError, NotFoundError, ValidationError } from '@filiere/platform';
import { balancesByAccount } from './accounts.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { placeHold, releaseHold, settleHold, type SettleHold } from './holds.js';
import { postingsOf } from './events.js';
import { transactionEffects } from './transactions.js';
import { givenWallet } from './test-fixtures.js';

/** Given: the aggregator holds 6,000 of its 10,000 for a contract; grower, SFD and provider wallets. */
function given() {
  const ledger = new InMemoryWalletLedger();
  givenWallet(ledger, 'agg', 10_000);
  givenWallet(ledger, 'grower');
  givenWallet(ledger, 'sfd');
  givenWallet(ledger, 'provider');
  ledger.apply(
    placeHold(ledger.wallet('agg'), { holdId: 'H1', amount: 6000, purpose: 'Contrat C1' }),
  );
  return ledger;
}

function settle(ledger: InMemoryWalletLedger, command: Partial<SettleHold>) {
  const cmd: SettleHold = {
    holdId: 'H1',
    settlementId: 'S1',
    payments: [],
    closeHold: false,
    allowExcess: false,
    ...command,
  };
  return settleHold(
    {
      wallet: ledger.wallet('agg'),
      destinations: Object.fromEntries(
        cmd.payments.map((p) => [p.walletId, ledger.wallet(p.walletId)]),
      ),
    },
    cmd,
  );
}

const sumOfPostings = (ledger: InMemoryWalletLedger) =>
  ledger.postings().reduce((sum, p) => sum + p.amount, 0);

describe('settleHold', () => {
  it('a partial payment keeps the remainder ACTIVE and held', () => {
    const ledger = given();
    const answer = ledger.apply(
      settle(ledger, { payments: [{ walletId: 'provider', amount: 1500 }] }),
    );
    expect(answer).toEqual({
      holdId: 'H1',
      status: 'ACTIVE',
      captured: 1500,
      excess: 0,
      released: 0,
      remaining: 4500,
    });
    expect(ledger.wallet('agg')).toMatchObject({
      balance: 8500,
      held: 4500,
      availableBalance: 4000,
    });
    expect(ledger.wallet('agg').holds.get('H1')).toMatchObject({
      status: 'ACTIVE',
      remaining: 4500,
    });
    expect(ledger.wallet('provider').balance).toBe(1500);
    expect(sumOfPostings(ledger)).toBe(0);
  });

  it('several settlements on one hold, the last taking what remains makes it CAPTURED', () => {
    const ledger = given();
    ledger.apply(settle(ledger, { payments: [{ walletId: 'provider', amount: 1000 }] }));
    ledger.apply(
      settle(ledger, { settlementId: 'S2', payments: [{ walletId: 'provider', amount: 2000 }] }),
    );
    const last = ledger.apply(
      settle(ledger, { settlementId: 'S3', payments: [{ walletId: 'grower', amount: 3000 }] }),
    );
    expect(last).toMatchObject({ status: 'CAPTURED', captured: 3000, remaining: 0 });
    expect(ledger.wallet('agg')).toMatchObject({ balance: 4000, held: 0, availableBalance: 4000 });
    expect(ledger.wallet('provider').balance).toBe(3000);
    expect(ledger.wallet('grower').balance).toBe(3000);
    // Captured: nothing more to settle or release.
    expect(() =>
      settle(ledger, { settlementId: 'S4', payments: [{ walletId: 'grower', amount: 1 }] }),
    ).toThrow(BusinessRuleError);
    expect(() => releaseHold(ledger.wallet('agg'), { holdId: 'H1' })).toThrow(BusinessRuleError);
  });

  it('closeHold pays, then releases what remains to the available balance', () => {
    const ledger = given();
    const answer = ledger.apply(
      settle(ledger, {
        closeHold: true,
        payments: [
          { walletId: 'sfd', amount: 500 },
          { walletId: 'grower', amount: 3500 },
        ],
      }),
    );
    expect(answer).toEqual({
      holdId: 'H1',
      status: 'CAPTURED',
      captured: 4000,
      excess: 0,
      released: 2000,
      remaining: 0,
    });
    expect(ledger.wallet('agg')).toMatchObject({ balance: 6000, held: 0, availableBalance: 6000 });
    expect(ledger.wallet('sfd').balance).toBe(500);
    expect(ledger.wallet('grower').balance).toBe(3500);
  });

  it('closeHold with no payment only releases; without closeHold no payment is a 400', () => {
    const ledger = given();
    expect(() => settle(ledger, {})).toThrow(ValidationError);
    const answer = ledger.apply(settle(ledger, { closeHold: true }));
    expect(answer).toMatchObject({ status: 'CAPTURED', captured: 0, released: 6000 });
    expect(ledger.wallet('agg')).toMatchObject({ balance: 10_000, availableBalance: 10_000 });
  });

  it('after a partial settlement, releasing frees only the remainder', () => {
    const ledger = given();
    ledger.apply(settle(ledger, { payments: [{ walletId: 'provider', amount: 1000 }] }));
    ledger.apply(releaseHold(ledger.wallet('agg'), { holdId: 'H1' }));
    expect(ledger.wallet('agg')).toMatchObject({ balance: 9000, held: 0, availableBalance: 9000 });
    expect(ledger.wallet('agg').holds.get('H1')).toMatchObject({
      status: 'RELEASED',
      remaining: 0,
    });
  });

  it('allowExcess takes what exceeds the hold from the available balance', () => {
    const ledger = given();
    const answer = ledger.apply(
      settle(ledger, {
        closeHold: true,
        allowExcess: true,
        payments: [{ walletId: 'grower', amount: 7000 }],
      }),
    );
    expect(answer).toMatchObject({ status: 'CAPTURED', captured: 6000, excess: 1000, released: 0 });
    expect(ledger.wallet('agg')).toMatchObject({ balance: 3000, held: 0, availableBalance: 3000 });
    expect(ledger.wallet('grower').balance).toBe(7000);
    expect(sumOfPostings(ledger)).toBe(0);
  });

  it('an excess beyond the available balance is a 422 with the missing amount; nothing moves', () => {
    const ledger = given();
    // Available: 4,000 beside the hold's 6,000, so at most 10,000 can be paid.
    expect(() =>
      settle(ledger, {
        closeHold: true,
        allowExcess: true,
        payments: [{ walletId: 'grower', amount: 10_001 }],
      }),
    ).toThrow(expect.objectContaining({ statusCode: 422, data: { missingAmount: 1 } }));
    expect(ledger.wallet('agg')).toMatchObject({ balance: 10_000, held: 6000 });
  });

  it('without allowExcess, paying beyond the remainder is refused', () => {
    const ledger = given();
    ledger.apply(settle(ledger, { payments: [{ walletId: 'provider', amount: 5000 }] }));
    expect(() =>
      settle(ledger, { settlementId: 'S2', payments: [{ walletId: 'provider', amount: 1001 }] }),
    ).toThrow(
      expect.objectContaining({
        statusCode: 422,
        message: 'La réservation ne couvre pas ce paiement',
        data: { missingAmount: 1 },
      }),
    );
  });

  it('is idempotent per settlementId: a repeat answers the same figures and writes nothing', () => {
    const ledger = given();
    const cmd = { closeHold: true, payments: [{ walletId: 'grower', amount: 4000 }] };
    const first = ledger.apply(settle(ledger, cmd));
    const again = settle(ledger, cmd);
    expect(again.writes).toEqual([]);
    expect(again.result).toEqual(first);
    // Even a partial one, while the hold is still ACTIVE.
    const other = given();
    const partial = other.apply(
      settle(other, { payments: [{ walletId: 'provider', amount: 100 }] }),
    );
    const repeat = settle(other, { payments: [{ walletId: 'provider', amount: 100 }] });
    expect(repeat.writes).toEqual([]);
    expect(repeat.result).toEqual(partial);
  });

  it('refuses payments to unknown or never-opened wallets, to the payer itself, twice to one wallet, or of no amount', () => {
    const ledger = given();
    expect(() => settle(ledger, { payments: [{ walletId: 'ghost', amount: 10 }] })).toThrow(
      NotFoundError,
    );
    expect(() =>
      settleHold(
        { wallet: ledger.wallet('agg'), destinations: { closed: ledger.wallet('closed') } },
        {
          holdId: 'H1',
          settlementId: 'S1',
          payments: [{ walletId: 'closed', amount: 10 }],
          closeHold: false,
          allowExcess: false,
        },
      ),
    ).toThrow(NotFoundError);
    expect(() => settle(ledger, { payments: [{ walletId: 'agg', amount: 10 }] })).toThrow(
      ValidationError,
    );
    expect(() =>
      settle(ledger, {
        payments: [
          { walletId: 'grower', amount: 10 },
          { walletId: 'grower', amount: 10 },
        ],
      }),
    ).toThrow(ValidationError);
    expect(() => settle(ledger, { payments: [{ walletId: 'grower', amount: 0 }] })).toThrow(
      ValidationError,
    );
    expect(() => settle(ledger, { holdId: 'nope', closeHold: true })).toThrow(NotFoundError);
  });

  it('a released hold cannot be settled', () => {
    const ledger = given();
    ledger.apply(releaseHold(ledger.wallet('agg'), { holdId: 'H1' }));
    expect(() => settle(ledger, { payments: [{ walletId: 'grower', amount: 1 }] })).toThrow(
      BusinessRuleError,
    );
  });

  it('every event balances, and each payment is a STANDARD row for the payer and the payee', () => {
    const ledger = given();
    const decision = settle(ledger, {
      closeHold: true,
      allowExcess: true,
      payments: [
        { walletId: 'sfd', amount: 700 },
        { walletId: 'grower', amount: 6300 },
      ],
    });
    const events = decision.writes.flatMap((w) => w.events);
    for (const event of events) {
      expect(postingsOf(event).reduce((s, p) => s + p.amount, 0)).toBe(0);
    }
    const rows = events.flatMap(transactionEffects);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          walletId: 'agg',
          direction: 'OUT',
          amount: 700,
          operationType: 'STANDARD',
          counterpartyWalletId: 'sfd',
        }),
        expect.objectContaining({ walletId: 'agg', direction: 'OUT', amount: 6300 }),
        expect.objectContaining({ walletId: 'sfd', direction: 'IN', amount: 700 }),
        expect.objectContaining({ walletId: 'grower', direction: 'IN', amount: 6300 }),
      ]),
    );
    expect(rows).toHaveLength(4);
    ledger.apply(decision);
    expect(balancesByAccount(ledger.postings()).get('wallet:agg')).toBe(3000);
    expect(ledger.refold('agg')).toMatchObject(ledger.wallet('agg'));
  });
});
