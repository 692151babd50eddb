import { describe, expect, it } from 'vitest';
import { BusinessRuleError, ForbiddenError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { openDebt } from './debts.js';
import {
  confirmDeliveryContract,
  createDeliveryContract,
  recordDelivery,
} from './delivery-contract.js';
import type { DebtKind } from './events.js';
import { settleDeliveryContract } from './settlement.js';
import {
  AGG,
  GROWER,
  GROWER_USER,
  InMemoryContracts,
  NOW,
  OTHER_AGG,
  SFD,
} from './test-fixtures.js';

const aggregator = { userId: AGG, role: ROLE.INDUSTRIAL };

/** A DELIVERED contract of 10 t for 1 000 000 F CFA (100 000 F CFA per tonne). */
function givenDelivered(deliveredKg = 10_000, contractId = 'c1', store = new InMemoryContracts()) {
  store.apply(
    createDeliveryContract(
      store.contract(contractId),
      {
        contractId,
        reference: `LIV-${contractId}`,
        growerId: GROWER,
        growerUserId: GROWER_USER,
        plotId: 'plot-1',
        quantityKg: 10_000,
        amount: 1_000_000,
      },
      aggregator,
      { now: NOW, availableBalance: 10_000_000, plotOfGrower: true },
    ),
  );
  store.apply(
    confirmDeliveryContract(
      store.contract(contractId),
      { userId: GROWER_USER, role: ROLE.GROWER },
      { now: NOW, cooperativeUserId: null },
    ),
  );
  store.apply(
    recordDelivery(
      store.contract(contractId),
      { deliveredKg, deliveredOn: '2026-11-25' },
      aggregator,
      {
        now: NOW,
      },
    ),
  );
  return store;
}

function givenDebt(
  store: InMemoryContracts,
  debtId: string,
  kind: DebtKind,
  creditorUserId: string,
  principal: number,
  openedAt = NOW,
) {
  store.apply(
    openDebt(
      store.debt(debtId),
      { debtId, kind, creditorUserId, debtorGrowerId: GROWER, principal },
      { now: openedAt },
    ),
  );
}

const settle = (store: InMemoryContracts, available = 0, contractId = 'c1') =>
  store.apply(
    settleDeliveryContract(store.contract(contractId), store.debts(), aggregator, {
      now: NOW,
      aggregatorAvailable: available,
      payout: null,
    }),
  );

describe('settle a delivered contract', () => {
  it('without debts: captures the delivered worth for the grower and releases the rest', () => {
    const store = givenDelivered(9_500);
    const result = settle(store);
    expect(result.settlement).toEqual({
      deliveredAmount: 950_000,
      payableAmount: 950_000,
      shortfall: 0,
      capturedFromHold: 950_000,
      releasedFromHold: 50_000,
      extraFromAvailable: 0,
      recoveries: [],
      growerNet: 950_000,
    });
    expect(result.wallet).toEqual({
      holdId: 'contract-c1',
      aggregatorUserId: AGG,
      holdAmount: 1_000_000,
      payments: [{ userId: GROWER_USER, amount: 950_000, reason: 'GROWER_NET' }],
      capturedFromHold: 950_000,
      extraFromAvailable: 0,
      releasedFromHold: 50_000,
    });
    expect(store.contract('c1').status).toBe('COMPLETED');
  });

  it('is paid exactly once: a second run decides nothing and answers the recorded settlement', () => {
    const store = givenDelivered();
    givenDebt(store, 'd1', 'AVANCE_SUR_INTRANT', AGG, 100_000);
    const first = settle(store);
    const again = settleDeliveryContract(store.contract('c1'), store.debts(), aggregator, {
      now: NOW,
      aggregatorAvailable: 0,
      payout: null,
    });
    expect(again.writes).toEqual([]);
    expect(again.result.wallet).toBeNull();
    expect(again.result.settlement).toEqual(first.settlement);
    expect(store.debt('d1').recovered).toBe(100_000);
  });

  it('names the payout given as input in its event when the net is paid out, null otherwise', () => {
    const payout = { payoutId: 'run-c1', maxAmount: 950_000 };
    const settleWith = (p: typeof payout | null, deliveredKg = 9_500) => {
      const store = givenDelivered(deliveredKg);
      const decided = settleDeliveryContract(store.contract('c1'), store.debts(), aggregator, {
        now: NOW,
        aggregatorAvailable: 0,
        payout: p,
      });
      const event = decided.writes[0]!.events.find((e) => e.type === 'DeliveryContractSettled')!;
      store.apply(decided);
      return { answer: decided.result.payoutId, event: event.data, store };
    };
    const paid = settleWith(payout);
    expect(paid.answer).toBe('run-c1');
    expect(paid.event).toMatchObject({ payoutId: 'run-c1', growerNet: 950_000 });
    // a repeat answers the payout the settlement recorded, whatever its input
    const again = settleDeliveryContract(paid.store.contract('c1'), [], aggregator, {
      now: NOW,
      aggregatorAvailable: 0,
      payout: null,
    });
    expect(again.writes).toEqual([]);
    expect(again.result.payoutId).toBe('run-c1');
    // no mobile money number, or a net above the largest payout: the net stays in the wallet
    expect(settleWith(null).event).toMatchObject({ payoutId: null });
    expect(settleWith({ ...payout, maxAmount: 949_999 }).answer).toBeNull();
  });

  it('a debt smaller than the payment is recovered whole (kept by the aggregator)', () => {
    const store = givenDelivered();
    givenDebt(store, 'd1', 'AVANCE_SUR_ANANAS', AGG, 300_000);
    const { settlement, wallet } = settle(store);
    expect(settlement.recoveries).toEqual([
      {
        debtId: 'd1',
        kind: 'AVANCE_SUR_ANANAS',
        creditorUserId: AGG,
        amount: 300_000,
        to: 'AGGREGATOR',
      },
    ]);
    expect(settlement.growerNet).toBe(700_000);
    // the kept 300 000 never leaves the aggregator: captured 700 000, released 300 000
    expect(wallet).toMatchObject({
      payments: [{ userId: GROWER_USER, amount: 700_000 }],
      capturedFromHold: 700_000,
      releasedFromHold: 300_000,
    });
    expect(store.debt('d1')).toMatchObject({ principal: 300_000, recovered: 300_000 });
  });

  it('a debt equal to the payment leaves the grower nothing and moves no money', () => {
    const store = givenDelivered();
    givenDebt(store, 'd1', 'AVANCE_SUR_INTRANT', AGG, 1_000_000);
    const { settlement, wallet } = settle(store);
    expect(settlement.growerNet).toBe(0);
    expect(wallet).toMatchObject({
      payments: [],
      capturedFromHold: 0,
      releasedFromHold: 1_000_000,
    });
  });

  it('a debt larger than the payment is partly recovered and carries over to the next contract', () => {
    const store = givenDelivered(5_000);
    givenDelivered(10_000, 'c2', store);
    givenDebt(store, 'd1', 'AVANCE_SUR_INTRANT', AGG, 800_000);
    expect(settle(store).settlement).toMatchObject({ payableAmount: 500_000, growerNet: 0 });
    expect(store.debt('d1')).toMatchObject({ recovered: 500_000 });
    const second = settle(store, 0, 'c2');
    expect(second.settlement.recoveries).toEqual([
      expect.objectContaining({ debtId: 'd1', amount: 300_000 }),
    ]);
    expect(second.settlement.growerNet).toBe(700_000);
    expect(store.debt('d1')).toMatchObject({
      recovered: 800_000,
      recoveries: { c1: 500_000, c2: 300_000 },
    });
  });

  it('advances to this aggregator first (oldest first), then social financing paid to the SFD', () => {
    const store = givenDelivered();
    givenDebt(store, 'sfd1', 'FINANCEMENT_SOCIAL', SFD, 250_000, '2026-01-01T00:00:00.000Z');
    givenDebt(store, 'late', 'AVANCE_SUR_ANANAS', AGG, 100_000, '2026-06-01T00:00:00.000Z');
    givenDebt(store, 'early', 'AVANCE_SUR_INTRANT', AGG, 200_000, '2026-02-01T00:00:00.000Z');
    givenDebt(
      store,
      'foreign',
      'AVANCE_SUR_INTRANT',
      OTHER_AGG,
      400_000,
      '2025-01-01T00:00:00.000Z',
    );
    const { settlement, wallet } = settle(store);
    expect(settlement.recoveries.map((r) => [r.debtId, r.amount, r.to])).toEqual([
      ['early', 200_000, 'AGGREGATOR'],
      ['late', 100_000, 'AGGREGATOR'],
      ['sfd1', 250_000, 'SFD'],
    ]);
    expect(settlement.growerNet).toBe(450_000);
    expect(wallet).toMatchObject({
      payments: [
        { userId: GROWER_USER, amount: 450_000, reason: 'GROWER_NET' },
        { userId: SFD, amount: 250_000, reason: 'SOCIAL_FINANCING' },
      ],
      capturedFromHold: 700_000,
      releasedFromHold: 300_000,
    });
    // another aggregator's advance is untouched
    expect(store.debt('foreign').recovered).toBe(0);
  });

  it('the SFD is repaid in part when the advances leave too little', () => {
    const store = givenDelivered();
    givenDebt(store, 'adv', 'AVANCE_SUR_INTRANT', AGG, 900_000, '2026-02-01T00:00:00.000Z');
    givenDebt(store, 'sfd1', 'FINANCEMENT_SOCIAL', SFD, 250_000, '2026-01-01T00:00:00.000Z');
    const { settlement, wallet } = settle(store);
    expect(settlement.recoveries.map((r) => [r.debtId, r.amount])).toEqual([
      ['adv', 900_000],
      ['sfd1', 100_000],
    ]);
    expect(wallet?.payments).toEqual([
      { userId: SFD, amount: 100_000, reason: 'SOCIAL_FINANCING' },
    ]);
    expect(store.debt('sfd1')).toMatchObject({ recovered: 100_000 });
  });

  it('over the hold: pays the full worth when the available balance covers the rest', () => {
    const store = givenDelivered(12_000);
    const { settlement } = settle(store, 200_000);
    expect(settlement).toMatchObject({
      deliveredAmount: 1_200_000,
      payableAmount: 1_200_000,
      capturedFromHold: 1_000_000,
      extraFromAvailable: 200_000,
      releasedFromHold: 0,
      shortfall: 0,
      growerNet: 1_200_000,
    });
  });

  it('over the hold: pays at most the held amount when the available balance is short', () => {
    const store = givenDelivered(12_000);
    const { settlement } = settle(store, 199_999);
    expect(settlement).toMatchObject({
      deliveredAmount: 1_200_000,
      payableAmount: 1_000_000,
      shortfall: 200_000,
      capturedFromHold: 1_000_000,
      extraFromAvailable: 0,
      growerNet: 1_000_000,
    });
  });

  it('rounds the delivered worth down to the franc', () => {
    const store = new InMemoryContracts();
    store.apply(
      createDeliveryContract(
        store.contract('c1'),
        {
          contractId: 'c1',
          reference: 'LIV-1',
          growerId: GROWER,
          growerUserId: GROWER_USER,
          plotId: 'p',
          quantityKg: 3_000,
          amount: 1_000_001,
        },
        aggregator,
        { now: NOW, availableBalance: 2_000_000, plotOfGrower: true },
      ),
    );
    store.apply(
      confirmDeliveryContract(
        store.contract('c1'),
        { userId: GROWER_USER, role: ROLE.GROWER },
        {
          now: NOW,
          cooperativeUserId: null,
        },
      ),
    );
    store.apply(
      recordDelivery(
        store.contract('c1'),
        { deliveredKg: 1_000, deliveredOn: '2026-11-25' },
        aggregator,
        { now: NOW },
      ),
    );
    expect(settle(store).settlement).toMatchObject({
      deliveredAmount: 333_333,
      releasedFromHold: 666_668,
    });
  });

  it('refuses a contract not delivered (422) and another aggregator (403)', () => {
    const store = givenDelivered();
    expect(() =>
      settleDeliveryContract(
        store.contract('c1'),
        [],
        { userId: OTHER_AGG, role: ROLE.INDUSTRIAL },
        {
          now: NOW,
          aggregatorAvailable: 0,
          payout: null,
        },
      ),
    ).toThrow(ForbiddenError);
    const pending = new InMemoryContracts();
    pending.apply(
      createDeliveryContract(
        pending.contract('c9'),
        {
          contractId: 'c9',
          reference: 'LIV-9',
          growerId: GROWER,
          growerUserId: GROWER_USER,
          plotId: 'p',
          quantityKg: 1,
          amount: 1,
        },
        aggregator,
        { now: NOW, availableBalance: 1, plotOfGrower: true },
      ),
    );
    expect(() =>
      settleDeliveryContract(pending.contract('c9'), [], aggregator, {
        now: NOW,
        aggregatorAvailable: 0,
        payout: null,
      }),
    ).toThrow(BusinessRuleError);
  });
});
