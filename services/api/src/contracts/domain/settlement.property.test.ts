import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { outstandingOf } from './debt-stream.js';
import { openDebt } from './debts.js';
import {
  cancelDeliveryContract,
  confirmDeliveryContract,
  createDeliveryContract,
  markOutOfTime,
  recordDelivery,
} from './delivery-contract.js';
import { DEBT_KINDS } from './events.js';
import { computeSettlement, settleDeliveryContract, type HoldSettlement } from './settlement.js';
import { AGG, InMemoryContracts, NOW, OTHER_AGG } from './test-fixtures.js';

/**
 * Random sequences of contracts, deliveries, advances, cancellations and (repeated) runs over
 * one aggregator and three growers, with a small wallet model that applies what each
 * decision tells the wallet to do. After every step: money is conserved, nothing is negative,
 * the aggregator's held amount equals the amounts of its open contracts, no debt is recovered
 * beyond its principal or twice by one contract, and each contract is paid at most once,
 * naming the payout given as input exactly when its net is paid out (and the same on repeats).
 */
const GROWERS = ['g1', 'g2', 'g3'];
const CREDITORS = [AGG, OTHER_AGG, 'sfd-a', 'sfd-b'];
const aggregator = { userId: AGG, role: ROLE.INDUSTRIAL };

/** Which contract a step acts on: one of the last four created (so lifecycles complete). */
const recent = fc.nat({ max: 3 });
const step = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      grower: fc.integer({ min: 0, max: 2 }),
      quantityKg: fc.integer({ min: 1, max: 20_000 }),
      amount: fc.integer({ min: 1, max: 3_000_000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('confirm' as const), pick: recent }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('deliver' as const),
      pick: recent,
      deliveredKg: fc.integer({ min: 1, max: 30_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('outtime' as const), pick: recent }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: recent }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('run' as const),
      pick: recent,
      times: fc.integer({ min: 1, max: 3 }),
      // the largest payout, or null for a grower without a mobile money number
      payoutMax: fc.option(fc.integer({ min: 0, max: 3_000_000 }), { nil: null }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('debt' as const),
      grower: fc.integer({ min: 0, max: 2 }),
      kind: fc.constantFrom(...DEBT_KINDS),
      creditor: fc.integer({ min: 0, max: 3 }),
      principal: fc.integer({ min: 1, max: 2_000_000 }),
    }),
  },
);

class WalletModel {
  balances = new Map<string, number>();
  holds = new Map<string, number>();
  constructor(aggregatorBalance: number) {
    this.balances.set(AGG, aggregatorBalance);
  }
  balance = (userId: string) => this.balances.get(userId) ?? 0;
  held = () => [...this.holds.values()].reduce((a, b) => a + b, 0);
  available = () => this.balance(AGG) - this.held();
  place(holdId: string, amount: number) {
    if (amount > this.available()) throw new Error('wallet would refuse: the decider must have');
    this.holds.set(holdId, amount);
  }
  release(holdId: string) {
    expect(this.holds.has(holdId)).toBe(true);
    this.holds.delete(holdId);
  }
  settle(s: HoldSettlement) {
    expect(this.holds.get(s.holdId)).toBe(s.holdAmount);
    expect(s.capturedFromHold + s.releasedFromHold).toBe(s.holdAmount);
    for (const part of [s.capturedFromHold, s.releasedFromHold, s.extraFromAvailable]) {
      expect(part).toBeGreaterThanOrEqual(0);
    }
    const paidOut = s.payments.reduce((sum, p) => sum + p.amount, 0);
    expect(paidOut).toBe(s.capturedFromHold + s.extraFromAvailable);
    // the extra comes from the available balance (this hold excluded), never beyond it
    expect(s.extraFromAvailable).toBeLessThanOrEqual(this.available());
    this.holds.delete(s.holdId);
    this.balances.set(AGG, this.balance(AGG) - paidOut);
    for (const p of s.payments) {
      expect(p.amount).toBeGreaterThan(0);
      this.balances.set(p.userId, this.balance(p.userId) + p.amount);
    }
  }
}

let settlements = 0;
let recoveries = 0;
let payouts = 0;

describe('settlement properties', () => {
  it('computeSettlement conserves money and never goes negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom(...DEBT_KINDS),
            creditor: fc.integer({ min: 0, max: 3 }),
            principal: fc.integer({ min: 1, max: 5_000_000 }),
            recovered: fc.nat(),
            openedAt: fc.integer({ min: 0, max: 9 }),
          }),
          { maxLength: 8 },
        ),
        (amount, quantityKg, deliveredKg, available, raw) => {
          const debts = raw.map((d, i) => {
            const recovered = d.recovered % d.principal;
            return {
              exists: true,
              debtId: `d${i}`,
              kind: d.kind,
              creditorUserId: CREDITORS[d.creditor]!,
              debtorGrowerId: 'g1',
              principal: d.principal,
              recovered,
              openedAt: `2026-01-0${d.openedAt}T00:00:00.000Z`,
              recoveries: {},
            };
          });
          const s = computeSettlement({
            contract: {
              contractId: 'c',
              aggregatorUserId: AGG,
              growerId: 'g1',
              amount,
              quantityKg,
              deliveredKg,
            },
            held: amount,
            aggregatorAvailable: available,
            debts,
          });
          const recovered = s.recoveries.reduce((sum, r) => sum + r.amount, 0);
          expect(s.payableAmount).toBe(s.growerNet + recovered);
          expect(s.payableAmount + s.shortfall).toBe(s.deliveredAmount);
          expect(s.capturedFromHold + s.releasedFromHold).toBe(amount);
          expect(s.extraFromAvailable).toBeLessThanOrEqual(available);
          for (const value of [
            s.growerNet,
            s.capturedFromHold,
            s.releasedFromHold,
            s.extraFromAvailable,
            s.shortfall,
          ]) {
            expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
          }
          for (const r of s.recoveries) {
            const debt = debts.find((d) => d.debtId === r.debtId)!;
            expect(r.amount).toBeGreaterThan(0);
            expect(r.amount).toBeLessThanOrEqual(outstandingOf(debt));
            expect(debt.creditorUserId === OTHER_AGG && debt.kind !== 'FINANCEMENT_SOCIAL').toBe(
              false,
            );
          }
          expect(new Set(s.recoveries.map((r) => r.debtId)).size).toBe(s.recoveries.length);
          // a debt is left outstanding only when nothing is left for the grower
          const skipped = debts.some(
            (d) =>
              outstandingOf(d) > 0 &&
              (d.kind === 'FINANCEMENT_SOCIAL' || d.creditorUserId === AGG) &&
              (s.recoveries.find((r) => r.debtId === d.debtId)?.amount ?? 0) < outstandingOf(d),
          );
          if (skipped) expect(s.growerNet).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('random sequences: ledger conserved, holds = open contracts, debts never over-recovered, paid once, payout named by its input', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000_000 }),
        fc.array(step, { minLength: 20, maxLength: 60 }),
        (start, steps) => {
          const store = new InMemoryContracts();
          const wallet = new WalletModel(start);
          const contracts: string[] = [];
          let debts = 0;
          const recoveredByDebt = new Map<string, number>();
          const paidTo = new Map<string, number>();
          const settledCount = new Map<string, number>();
          const pick = (n: number) =>
            contracts[contracts.length - 1 - Math.min(n, contracts.length - 1)];
          const attempt = <R>(run: () => R): R | null => {
            try {
              return run();
            } catch (error) {
              if (error instanceof AppError) return null;
              throw error;
            }
          };
          for (const s of steps) {
            if (s.op === 'create') {
              const contractId = `c${contracts.length}`;
              const result = attempt(() =>
                store.apply(
                  createDeliveryContract(
                    store.contract(contractId),
                    {
                      contractId,
                      reference: contractId,
                      growerId: GROWERS[s.grower]!,
                      growerUserId: `${GROWERS[s.grower]!}-user`,
                      plotId: 'p',
                      quantityKg: s.quantityKg,
                      amount: s.amount,
                    },
                    aggregator,
                    { now: NOW, availableBalance: wallet.available(), plotOfGrower: true },
                  ),
                ),
              );
              if (result) {
                wallet.place(result.hold.holdId, result.hold.amount);
                contracts.push(contractId);
              } else {
                expect(s.amount).toBeGreaterThan(wallet.available());
              }
            } else if (s.op === 'debt') {
              const debtId = `d${debts++}`;
              store.apply(
                openDebt(
                  store.debt(debtId),
                  {
                    debtId,
                    kind: s.kind,
                    creditorUserId: CREDITORS[s.creditor]!,
                    debtorGrowerId: GROWERS[s.grower]!,
                    principal: s.principal,
                  },
                  { now: `2026-01-01T00:00:${String(debts % 60).padStart(2, '0')}.000Z` },
                ),
              );
            } else {
              const contractId = pick(s.pick);
              if (!contractId) continue;
              const state = store.contract(contractId);
              if (s.op === 'confirm') {
                attempt(() =>
                  store.apply(
                    confirmDeliveryContract(
                      state,
                      { userId: state.growerUserId, role: ROLE.GROWER },
                      {
                        now: NOW,
                        cooperativeUserId: null,
                      },
                    ),
                  ),
                );
              } else if (s.op === 'deliver') {
                attempt(() =>
                  store.apply(
                    recordDelivery(
                      state,
                      { deliveredKg: s.deliveredKg, deliveredOn: '2026-11-25' },
                      aggregator,
                      {
                        now: NOW,
                      },
                    ),
                  ),
                );
              } else if (s.op === 'outtime') {
                store.apply(markOutOfTime(state, { now: '2028-01-01T00:00:00.000Z' }));
              } else if (s.op === 'cancel') {
                const result = attempt(() =>
                  store.apply(cancelDeliveryContract(state, aggregator, { now: NOW })),
                );
                if (result?.release) wallet.release(result.release.holdId);
              } else {
                for (let i = 0; i < s.times; i++) {
                  const payout =
                    s.payoutMax === null
                      ? null
                      : { payoutId: `run-${contractId}`, maxAmount: s.payoutMax };
                  const decided = attempt(() =>
                    settleDeliveryContract(store.contract(contractId), store.debts(), aggregator, {
                      now: NOW,
                      aggregatorAvailable: wallet.available(),
                      payout,
                    }),
                  );
                  if (!decided) continue;
                  const recorded = store.contract(contractId).settlement?.payoutId;
                  const result = store.apply(decided);
                  // the settlement event names the payout the decider answers
                  expect(store.contract(contractId).settlement?.payoutId).toBe(result.payoutId);
                  if (!result.wallet) {
                    // a repeat answers the payout recorded by the run that paid
                    expect(result.payoutId).toBe(recorded);
                    continue;
                  }
                  const net = result.settlement.growerNet;
                  expect(result.payoutId).toBe(
                    payout !== null && net > 0 && net <= payout.maxAmount ? payout.payoutId : null,
                  );
                  if (result.payoutId !== null) payouts++;
                  settlements++;
                  settledCount.set(contractId, (settledCount.get(contractId) ?? 0) + 1);
                  wallet.settle(result.wallet);
                  recoveries += result.settlement.recoveries.length;
                  for (const r of result.settlement.recoveries) {
                    recoveredByDebt.set(r.debtId, (recoveredByDebt.get(r.debtId) ?? 0) + r.amount);
                  }
                  const growerUser = store.contract(contractId).growerUserId;
                  paidTo.set(
                    growerUser,
                    (paidTo.get(growerUser) ?? 0) + result.settlement.growerNet,
                  );
                }
              }
            }
            // money is conserved: it only moves between wallets
            const total = [...wallet.balances.values()].reduce((a, b) => a + b, 0);
            expect(total).toBe(start);
            for (const value of wallet.balances.values()) expect(value).toBeGreaterThanOrEqual(0);
            expect(wallet.available()).toBeGreaterThanOrEqual(0);
            // holds equal the amounts of the open contracts (never leaked)
            const open = contracts
              .map((id) => store.contract(id))
              .filter((c) => c.status !== 'COMPLETED' && c.status !== 'CANCELED');
            expect(wallet.held()).toBe(open.reduce((sum, c) => sum + c.amount, 0));
          }
          for (const count of settledCount.values()) expect(count).toBe(1);
          for (const debt of store.debts()) {
            expect(debt.recovered).toBeLessThanOrEqual(debt.principal);
            expect(debt.recovered).toBe(recoveredByDebt.get(debt.debtId!) ?? 0);
            if (debt.kind !== 'FINANCEMENT_SOCIAL' && debt.creditorUserId === OTHER_AGG) {
              expect(debt.recovered).toBe(0);
            }
          }
          // each grower received exactly the nets of its settlements; each SFD what it recovered
          for (const [user, amount] of paidTo) expect(wallet.balance(user)).toBe(amount);
          for (const sfd of ['sfd-a', 'sfd-b']) {
            const owed = store
              .debts()
              .filter((d) => d.kind === 'FINANCEMENT_SOCIAL' && d.creditorUserId === sfd)
              .reduce((sum, d) => sum + d.recovered, 0);
            expect(wallet.balance(sfd)).toBe(owed);
          }
        },
      ),
      { numRuns: 300 },
    );
    // the sequences do reach the runs (not a vacuous pass)
    expect(settlements).toBeGreaterThan(50);
    expect(recoveries).toBeGreaterThan(20);
    expect(payouts).toBeGreaterThan(10);
  });
});
