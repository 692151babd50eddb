import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from '@filiere/platform';
import { balancesByAccount, walletAccount } from './accounts.js';
import type { Actor, Decision } from './decision.js';
import { systemActor } from './decision.js';
import { InMemoryWalletLedger } from './in-memory-ledger.js';
import { captureHold, placeHold, releaseHold, settleHold } from './holds.js';
import { openWallet } from './open-wallet.js';
import { evolveWallet } from './wallet-stream.js';
import { initiateSupply, validateBankSupply, verifySupply } from './supply.js';
import { bank, superAdmin } from './test-fixtures.js';
import { finance, transfer } from './transfer.js';
import {
  completeWithdrawal,
  failWithdrawal,
  requestSystemPayout,
  requestWithdrawal,
} from './withdrawal.js';

const WALLETS = ['w0', 'w1', 'w2', 'w3', 'w4', 'w5'];
const actors: Record<string, Actor> = Object.fromEntries(
  WALLETS.map((w, i) => [
    w,
    {
      userId: `u-${w}`,
      role: i === 0 ? 'ROLE_ADMIN' : i % 2 ? 'ROLE_INDUSTRIAL' : 'ROLE_GROWER',
      walletId: w,
      clusterId: i < 3 ? 'c1' : 'c2',
    },
  ]),
);

const wallet = fc.constantFrom(...WALLETS);
// Mostly valid amounts, sometimes invalid ones the deciders must refuse.
const amount = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -5, 1.5, Number.MAX_SAFE_INTEGER + 1) },
);
const pick = fc.nat({ max: 50 });

const command = fc.oneof(
  fc.record({
    kind: fc.constant('supply' as const),
    wallet,
    amount,
    method: fc.constantFrom('MOBILE_MONEY' as const, 'CARD' as const),
    answer: fc.constantFrom('SUCCESS', 'FAILED', 'PENDING', 'WRONG_AMOUNT', 'WRONG_REFERENCE'),
    transactionId: fc.constantFrom('tx-a', 'tx-b', 'tx-c', 'tx-d'),
    verifyTwice: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('bankSupply' as const),
    wallet,
    amount,
    validateTwice: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('reverify' as const),
    pick,
    transactionId: fc.constantFrom('tx-a', 'tx-e'),
  }),
  fc.record({ kind: fc.constant('transfer' as const), from: wallet, to: wallet, amount }),
  fc.record({ kind: fc.constant('finance' as const), from: wallet, to: wallet, amount }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    wallet,
    amount,
    method: fc.constantFrom('MOBILE_MONEY' as const, 'BANK' as const),
  }),
  fc.record({ kind: fc.constant('settle' as const), pick, success: fc.boolean() }),
  fc.record({ kind: fc.constant('hold' as const), wallet, amount }),
  fc.record({ kind: fc.constant('hold' as const), wallet, amount }),
  fc.record({ kind: fc.constant('release' as const), pick }),
  fc.record({ kind: fc.constant('capture' as const), pick, to: wallet, split: fc.boolean() }),
  // Settlements: partial or closing, with or without excess, sometimes repeated (same id).
  fc.record({
    kind: fc.constant('settleHold' as const),
    pick,
    payments: fc.array(
      fc.record({
        to: wallet,
        amount: fc.oneof(
          { weight: 9, arbitrary: fc.integer({ min: 1, max: 4000 }) },
          { weight: 1, arbitrary: amount },
        ),
      }),
      { maxLength: 3 },
    ),
    closeHold: fc.boolean(),
    allowExcess: fc.boolean(),
    settlement: fc.constantFrom('s1', 's2', 's3', 's4'),
    repeat: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('systemPayout' as const),
    wallet,
    amount,
    cause: fc.constantFrom('c1', 'c2', 'c3'),
    repeat: fc.boolean(),
  }),
);

type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

class Model {
  readonly ledger = new InMemoryWalletLedger();
  readonly supplies: string[] = [];
  readonly withdrawals: string[] = [];
  readonly holds: { walletId: string; holdId: string }[] = [];
  accepted = 0;
  refused = 0;
  /** Settlements that moved money, and system payouts written. */
  settled = 0;
  paidOut = 0;
  private seq = 0;

  constructor() {
    for (const w of WALLETS) {
      this.ledger.apply(openWallet(this.ledger.wallet(w), { walletId: w, ownerUserId: `u-${w}` }));
    }
  }

  /** Applies a decision, or counts a refusal; anything but a typed AppError is a bug. */
  run<R>(decide: () => Decision<R>): R | undefined {
    try {
      const decided = decide();
      this.checkEachEvent(decided);
      const result = this.ledger.apply(decided);
      this.accepted++;
      return result;
    } catch (error) {
      if (!isAppError(error)) throw error;
      this.refused++;
      return undefined;
    }
  }

  /**
   * Every position of the log is a state someone may read (the balance history, an auditor's
   * balance at an instant), not only the state after a whole command: each wallet event of a
   * decision, folded in order, leaves balance and available balance ≥ 0.
   */
  private checkEachEvent(decided: Decision<unknown>): void {
    for (const write of decided.writes) {
      if (!write.streamId.startsWith('wallet-')) continue;
      let state = this.ledger.wallet(write.streamId.slice('wallet-'.length));
      for (const event of write.events) {
        state = evolveWallet(state, event as never);
        if (state.balance < 0 || state.availableBalance < 0) {
          expect.fail(
            `${write.streamId} after ${event.type}: balance ${state.balance}, available ${state.availableBalance}`,
          );
        }
      }
    }
  }

  step(c: Command): void {
    const l = this.ledger;
    const id = `${c.kind}-${++this.seq}`;
    switch (c.kind) {
      case 'supply': {
        const ok = this.run(() =>
          initiateSupply(
            { wallet: l.wallet(c.wallet), supply: l.supply(id) },
            { reference: id, walletId: c.wallet, method: c.method, amount: c.amount },
            actors[c.wallet]!,
            { bank },
          ),
        );
        if (!ok) return;
        this.supplies.push(id);
        const verification = {
          status: c.answer === 'FAILED' || c.answer === 'PENDING' ? c.answer : ('SUCCESS' as const),
          amount: c.answer === 'WRONG_AMOUNT' ? c.amount + 1 : c.amount,
          reference: c.answer === 'WRONG_REFERENCE' ? 'other' : id,
          transactionId: c.transactionId,
        };
        for (let i = 0; i < (c.verifyTwice ? 2 : 1); i++) {
          this.run(() =>
            verifySupply(
              { supply: l.supply(id), wallet: l.wallet(c.wallet) },
              { reference: id },
              systemActor,
              {
                verification,
              },
            ),
          );
        }
        return;
      }
      case 'reverify': {
        const ref = this.supplies[c.pick % Math.max(1, this.supplies.length)];
        if (!ref) return;
        const s = l.supply(ref);
        this.run(() =>
          verifySupply(
            { supply: s, wallet: l.wallet(s.walletId!) },
            { reference: ref },
            systemActor,
            {
              verification: {
                status: 'SUCCESS',
                amount: s.amount,
                reference: ref,
                transactionId: c.transactionId,
              },
            },
          ),
        );
        return;
      }
      case 'bankSupply': {
        const ok = this.run(() =>
          initiateSupply(
            { wallet: l.wallet(c.wallet), supply: l.supply(id) },
            { reference: id, walletId: c.wallet, method: 'BANK', amount: c.amount },
            actors[c.wallet]!,
            { bank },
          ),
        );
        if (!ok) return;
        for (let i = 0; i < (c.validateTwice ? 2 : 1); i++) {
          this.run(() =>
            validateBankSupply(
              { supply: l.supply(id), wallet: l.wallet(c.wallet) },
              { reference: id, retypedReference: id },
              superAdmin,
            ),
          );
        }
        return;
      }
      case 'transfer':
        this.run(() =>
          transfer(
            { source: l.wallet(c.from), destination: l.wallet(c.to) },
            {
              reference: id,
              sourceWalletId: c.from,
              destinationWalletId: c.to,
              amount: c.amount,
              reason: 'Motif',
            },
            actors[c.from]!,
            { recipient: { ...actors[c.to]!, status: 'ACTIVE' } },
          ),
        );
        return;
      case 'finance':
        this.run(() =>
          finance(
            { source: l.wallet(c.from), destination: l.wallet(c.to) },
            { reference: id, sourceWalletId: c.from, destinationWalletId: c.to, amount: c.amount },
            actors[c.from]!,
            { recipient: { ...actors[c.to]!, status: 'ACTIVE' } },
          ),
        );
        return;
      case 'withdraw':
        if (
          this.run(() =>
            requestWithdrawal(
              { wallet: l.wallet(c.wallet), withdrawal: l.withdrawal(id) },
              { withdrawalId: id, walletId: c.wallet, method: c.method, amount: c.amount },
              actors[c.wallet]!,
              { destination: '+2290197000000' },
            ),
          )
        ) {
          this.withdrawals.push(id);
        }
        return;
      case 'settle': {
        const wid = this.withdrawals[c.pick % Math.max(1, this.withdrawals.length)];
        if (!wid) return;
        const w = l.withdrawal(wid);
        this.run(() =>
          c.success
            ? completeWithdrawal(w, { withdrawalId: wid, providerId: 'p' }, { bankCode: bank.code })
            : failWithdrawal(
                { withdrawal: w, wallet: l.wallet(w.walletId!) },
                { withdrawalId: wid },
              ),
        );
        return;
      }
      case 'hold':
        if (
          this.run(() =>
            placeHold(l.wallet(c.wallet), { holdId: id, amount: c.amount, purpose: 'Contrat' }),
          )
        ) {
          this.holds.push({ walletId: c.wallet, holdId: id });
        }
        return;
      case 'release': {
        const h = this.holds[c.pick % Math.max(1, this.holds.length)];
        if (h) this.run(() => releaseHold(l.wallet(h.walletId), { holdId: h.holdId }));
        return;
      }
      case 'capture': {
        const h = this.holds[c.pick % Math.max(1, this.holds.length)];
        if (!h) return;
        const held = l.wallet(h.walletId).holds.get(h.holdId)!.remaining;
        const others = WALLETS.filter((w) => w !== h.walletId && w !== c.to);
        const payments =
          c.split && held > 1
            ? [
                { walletId: c.to, amount: held - Math.floor(held / 3) },
                { walletId: others[0]!, amount: Math.floor(held / 3) },
              ].filter((p) => p.amount > 0)
            : [{ walletId: c.to, amount: held }];
        this.run(() =>
          captureHold(
            {
              wallet: l.wallet(h.walletId),
              destinations: Object.fromEntries(
                payments.map((p) => [p.walletId, l.wallet(p.walletId)]),
              ),
            },
            { holdId: h.holdId, payments },
          ),
        );
        return;
      }
      case 'settleHold': {
        const h = this.holds[c.pick % Math.max(1, this.holds.length)];
        if (!h) return;
        const payments = c.payments.map((p) => ({ walletId: p.to, amount: p.amount }));
        const decide = () =>
          settleHold(
            {
              wallet: l.wallet(h.walletId),
              destinations: Object.fromEntries(
                payments.map((p) => [p.walletId, l.wallet(p.walletId)]),
              ),
            },
            {
              holdId: h.holdId,
              settlementId: c.settlement,
              payments,
              closeHold: c.closeHold,
              allowExcess: c.allowExcess,
            },
          );
        const first = this.run(decide);
        if (first) this.settled++;
        if (first && c.repeat) {
          // The same settlement again: the same figures, nothing written.
          const again = decide();
          if (again.writes.length > 0 || JSON.stringify(again.result) !== JSON.stringify(first)) {
            expect.fail(`settlement repeated: ${JSON.stringify({ first, again })}`);
          }
        }
        return;
      }
      case 'systemPayout': {
        const withdrawalId = `system-${c.wallet}-${c.cause}`;
        const decide = () =>
          requestSystemPayout(
            { wallet: l.wallet(c.wallet), withdrawal: l.withdrawal(withdrawalId) },
            { withdrawalId, walletId: c.wallet, amount: c.amount, reason: 'Contrat' },
            { destination: '+2290197000000' },
          );
        const before = l.version(`withdrawal-${withdrawalId}`);
        if (this.run(decide) && before === 0 && l.version(`withdrawal-${withdrawalId}`) > 0) {
          this.withdrawals.push(withdrawalId);
          this.paidOut++;
        }
        if (c.repeat && l.version(`withdrawal-${withdrawalId}`) > 0) {
          try {
            if (decide().writes.length > 0) expect.fail('system payout repeated wrote again');
          } catch (error) {
            if (!isAppError(error)) throw error;
          }
        }
        return;
      }
    }
  }

  /** Plain checks each step (cheap); `expect` only reports a broken one. */
  checkInvariants(): void {
    const fail = (what: string, detail: unknown) =>
      expect.fail(`${what}: ${JSON.stringify(detail)}`);
    const postings = this.ledger.postings();
    const total = postings.reduce((sum, p) => sum + p.amount, 0);
    if (total !== 0) fail('Σ postings ≠ 0', total);
    const byAccount = balancesByAccount(postings);
    for (const w of WALLETS) {
      const state = this.ledger.wallet(w);
      const activeHolds = [...state.holds.values()]
        .filter((h) => h.status === 'ACTIVE')
        .reduce((sum, h) => sum + h.remaining, 0);
      for (const h of state.holds.values()) {
        const settled = Object.values(h.settlements).reduce(
          (sum, s) => sum + s.captured + s.released,
          0,
        );
        if (h.remaining < 0 || settled + h.remaining > h.amount) fail('hold over-settled', h);
        if (h.status !== 'ACTIVE' && h.remaining !== 0) fail('closed hold still holds', h);
      }
      const refolded = this.ledger.refold(w);
      if (state.balance < 0 || state.availableBalance < 0) fail('negative balance', state);
      if (state.balance !== (byAccount.get(walletAccount(w)) ?? 0)) fail('fold ≠ Σ postings', w);
      if (state.held !== activeHolds || state.availableBalance !== state.balance - activeHolds) {
        fail('held ≠ Σ active holds', state);
      }
      if (refolded.balance !== state.balance || refolded.held !== state.held) {
        fail('incremental fold ≠ full fold', w);
      }
    }
    for (const [account, balance] of byAccount) {
      if (account.startsWith('payout:') && balance < 0) fail('payout clearing < 0', account);
    }
  }
}

describe('wallet ledger properties', () => {
  it('random command sequences over many wallets keep Σ postings = 0, balances ≥ 0 and each wallet’s fold = Σ of its postings', () => {
    let accepted = 0;
    let refused = 0;
    let settled = 0;
    let paidOut = 0;
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 80, size: 'max' }), (commands) => {
        const model = new Model();
        for (const c of commands) {
          model.step(c);
          model.checkInvariants();
        }
        accepted += model.accepted;
        refused += model.refused;
        settled += model.settled;
        paidOut += model.paidOut;
      }),
      { numRuns: 400 },
    );
    // Both paths were exercised: money moved, and commands were refused. Guards against a
    // generator that stops reaching a path (0), not figures to hit: over 12 runs settlements
    // were 48-85 (one run in 12 under the 50 this once asked, failing CI's run at random).
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(50);
    expect(settled).toBeGreaterThan(15);
    expect(paidOut).toBeGreaterThan(50);
  }, 120_000);

  it('a supply is credited at most once whatever the number of verifications', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 5 }),
        (amount, times) => {
          const model = new Model();
          const l = model.ledger;
          l.apply(
            initiateSupply(
              { wallet: l.wallet('w1'), supply: l.supply('R') },
              { reference: 'R', walletId: 'w1', method: 'MOBILE_MONEY', amount },
              actors.w1!,
              { bank },
            ),
          );
          for (let i = 0; i < times; i++) {
            l.apply(
              verifySupply(
                { supply: l.supply('R'), wallet: l.wallet('w1') },
                { reference: 'R' },
                systemActor,
                {
                  verification: { status: 'SUCCESS', amount, reference: 'R', transactionId: 'tx' },
                },
              ),
            );
          }
          expect(l.wallet('w1').balance).toBe(amount);
        },
      ),
    );
  });
});
