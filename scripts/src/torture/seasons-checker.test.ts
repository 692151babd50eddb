import { describe, expect, it } from 'vitest';
import {
  checkAcceptancesOnce,
  checkDeliveriesPaidOnce,
  checkHolds,
  checkOfflineReplays,
  type LoggedEvent,
  type OfflineReplay,
} from './seasons-checker.js';

const HOLD = 'input-assignment-1';
const W = 'w-aggregator';

/**
 * A consistent log: an assignment's hold of 140,000; INPUT request 5 (7,000) accepted and
 * delivered once (paid from the hold, one debt); PINEAPLE request 6 (3,000) accepted (one
 * transfer, one debt). Each doctored copy below breaks one thing an invariant guards.
 */
function log(): LoggedEvent[] {
  const e = (stream_id: string, type: string, data: Record<string, unknown>) => ({
    position: 0,
    stream_id,
    type,
    data,
  });
  const events = [
    e(`wallet-${W}`, 'HoldPlaced', { holdId: HOLD, walletId: W, amount: 140_000, purpose: 'x' }),
    e('seasoninput-1', 'InputProviderAssigned', { assignmentId: 1, holdId: HOLD, amount: 140_000 }),
    e('seasonrequest-5', 'GrowerRequestFiled', {
      requestId: 5,
      type: 'INPUT',
      amount: 7_000,
      growerId: 'g1',
      industrialUserId: 'i1',
    }),
    e('seasonrequest-5', 'GrowerRequestAccepted', { requestId: 5, code: 'AGW_000005' }),
    e('seasonrequest-5', 'InputDelivered', { requestId: 5, amount: 7_000 }),
    ...paid(5, 7_000, 133_000),
    e('debt-input-advance-5', 'DebtOpened', {
      debtId: 'input-advance-5',
      kind: 'AVANCE_SUR_INTRANT',
      principal: 7_000,
      sourceContractId: 'request-5',
      debtorGrowerId: 'g1',
    }),
    e('seasonrequest-6', 'GrowerRequestFiled', {
      requestId: 6,
      type: 'PINEAPLE',
      amount: 3_000,
      growerId: 'g1',
      industrialUserId: 'i1',
    }),
    e('seasonrequest-6', 'GrowerRequestAccepted', {
      requestId: 6,
      code: null,
      debtId: 'request-6',
    }),
    e(`wallet-${W}`, 'TransferSent', { reference: 'request-6', amount: 3_000, postings: [] }),
    e('debt-request-6', 'DebtOpened', {
      debtId: 'request-6',
      kind: 'AVANCE_SUR_ANANAS',
      principal: 3_000,
      sourceContractId: null,
      debtorGrowerId: 'g1',
    }),
  ];
  return events.map((event, i) => ({ ...event, position: i + 1 }));
}

function paid(
  requestId: number,
  amount: number,
  remaining: number,
  status: 'ACTIVE' | 'CAPTURED' = 'ACTIVE',
): LoggedEvent[] {
  const settlementId = `delivery-${requestId}`;
  return [
    {
      position: 0,
      stream_id: `wallet-${W}`,
      type: 'HoldSettlementPaid',
      data: { holdId: HOLD, settlementId, fromWalletId: W, toWalletId: 'p', amount, postings: [] },
    },
    {
      position: 0,
      stream_id: `wallet-${W}`,
      type: 'HoldSettled',
      data: {
        holdId: HOLD,
        settlementId,
        walletId: W,
        payments: [{ walletId: 'p', amount }],
        captured: amount,
        excess: 0,
        released: 0,
        remaining,
        status,
      },
    },
  ];
}

const failures = (check: (events: LoggedEvent[], fail: (d: string) => void) => number) => {
  return (events: LoggedEvent[]) => {
    const found: string[] = [];
    check(events, (d) => found.push(d));
    return found;
  };
};
const deliveries = failures(checkDeliveriesPaidOnce);
const acceptances = failures(checkAcceptancesOnce);
const holds = failures(checkHolds);

describe("the bank test's seasons invariants catch what they guard", () => {
  it('a consistent log passes all three', () => {
    expect(deliveries(log())).toEqual([]);
    expect(acceptances(log())).toEqual([]);
    expect(holds(log())).toEqual([]);
  });

  it("an ACTIVE assignment's hold closes when deliveries use its whole right, not before", () => {
    const usedUp = [...log(), ...paid(7, 133_000, 0, 'CAPTURED')];
    expect(holds(usedUp)).toEqual([]);
    const closedEarly = [...log(), ...paid(7, 100_000, 33_000, 'CAPTURED')];
    expect(holds(closedEarly)).toEqual([
      expect.stringContaining(
        'its assignment is ACTIVE, the hold CAPTURED with 33000 of its right left',
      ),
    ]);
  });

  it('a delivery paid twice (a second payment from the hold) fails deliveries and holds', () => {
    const twice = [...log(), ...paid(5, 7_000, 126_000)];
    expect(deliveries(twice)).toEqual([
      expect.stringContaining('delivery of request 5: 2 provider payments, 2 settlements'),
    ]);
    expect(holds(twice)).toEqual([]); // remaining follows the payments: caught by deliveries
    const paidOnceMore = [...log(), paid(5, 7_000, 133_000)[0]!];
    expect(holds(paidOnceMore)).toEqual([
      expect.stringContaining('remaining 133000, its amount less its deliveries is 126000'),
    ]);
  });

  it('a delivery recorded twice, a second debt, a payment for an undelivered request fail', () => {
    const events = log();
    expect(deliveries([...events, events[4]!])).toEqual([
      expect.stringContaining('request 5 delivered 2 times'),
    ]);
    expect(deliveries([...events, events[7]!])).toEqual([
      expect.stringContaining('delivery of request 5: 2 debts'),
    ]);
    const undelivered = events.filter((e) => e.type !== 'InputDelivered');
    expect(deliveries(undelivered)).toEqual([
      expect.stringContaining('request 5 was never delivered yet paid 1 times and owes 1 debts'),
    ]);
  });

  it('a hold below zero, a leaked hold, a banned assignment still held fail', () => {
    const below = log().map((e) =>
      e.type === 'HoldSettled' ? { ...e, data: { ...e.data, remaining: -1 } } : e,
    );
    expect(holds(below).join('\n')).toContain('remaining -1');
    const stray = [
      ...log(),
      {
        position: 99,
        stream_id: `wallet-${W}`,
        type: 'HoldPlaced',
        data: { holdId: 'stray', walletId: W, amount: 10, purpose: 'x' },
      },
    ];
    expect(holds(stray)).toEqual([expect.stringContaining('hold stray of wallet')]);
    const banned = [
      ...log(),
      {
        position: 99,
        stream_id: 'seasoninput-1',
        type: 'InputProviderBanned',
        data: { assignmentId: 1 },
      },
    ];
    expect(holds(banned)).toEqual([expect.stringContaining('its assignment is banned')]);
  });

  it('an acceptance paid twice, accepted twice, or a code given twice fails', () => {
    const events = log();
    const transfer = events.find((e) => e.type === 'TransferSent')!;
    expect(acceptances([...events, transfer])).toEqual([
      expect.stringContaining('PINEAPLE request 6: transfers [3000,3000]'),
    ]);
    expect(acceptances([...events, events[3]!])).toEqual([
      expect.stringContaining('request 5 accepted 2 times'),
    ]);
    const again = events
      .filter((e) => e.stream_id === 'seasonrequest-5' && e.type !== 'InputDelivered')
      .map((e) => ({ ...e, stream_id: 'seasonrequest-7', data: { ...e.data, requestId: 7 } }));
    expect(acceptances([...events, ...again])).toEqual([
      expect.stringContaining('code AGW_000005 given to requests 5 and 7'),
    ]);
  });
});

describe("the bank test's offline replay invariant catches what it guards", () => {
  const delivered = (requestId: number) => ({
    position: 0,
    stream_id: `seasonrequest-${requestId}`,
    type: 'InputDelivered',
    data: { requestId },
  });
  const replay = (
    key: string,
    requestId: number,
    outcome: OfflineReplay['outcome'],
    deliveredAt = '2026-12-07T04:00:00.000Z',
  ): OfflineReplay => ({
    key,
    outcome,
    ...(outcome === 'ack'
      ? { status: 200, body: { deliveredAt, debtId: `input-advance-${requestId}` } }
      : {}),
    ...(outcome === 'refused' ? { status: 409 } : {}),
    meta: { requestId },
  });
  const check = (events: LoggedEvent[], replays: OfflineReplay[]) => {
    const found: string[] = [];
    checkOfflineReplays(events, replays, (d) => found.push(d));
    return found;
  };

  it('passes: acknowledged twice with one answer and delivered once; refused ones delivered by another', () => {
    expect(
      check(
        [delivered(1), delivered(2)],
        [replay('k1', 1, 'ack'), replay('k1', 1, 'ack'), replay('k2', 2, 'refused')],
      ),
    ).toEqual([]);
  });

  it('fails: delivered twice, acknowledged but not delivered, two answers for one key, lost', () => {
    expect(check([delivered(1), delivered(1)], [replay('k1', 1, 'ack')])).toEqual([
      'offline k1: request 1 delivered 2 times',
      'offline k1: acknowledged 1 times, request 1 delivered 2 times',
    ]);
    expect(check([], [replay('k2', 2, 'ack')])).toEqual([
      'offline k2: acknowledged 1 times, request 2 delivered 0 times',
    ]);
    expect(
      check(
        [delivered(3)],
        [replay('k3', 3, 'ack'), replay('k3', 3, 'ack', '2026-12-07T05:00:00.000Z')],
      ),
    ).toEqual([expect.stringContaining('offline k3: 2 different acknowledgements of one key')]);
    expect(check([], [replay('k4', 4, 'unack'), replay('k4', 4, 'unack')])).toEqual([
      'offline k4: no answer after the faults, the action is lost',
    ]);
  });
});
