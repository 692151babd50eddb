import { describe, expect, it } from 'vitest';
import {
  checkCompletedOnce,
  checkConsentByCode,
  checkConsentByReply,
  checkContractHolds,
  type CodeEntry,
  replyKey,
  type ReplyEntry,
  checkOfflineWeighings,
  checkRunsPaidAsNetted,
  checkSfdRepaid,
  worthOf,
  type OfflineWeighing,
} from './contracts-checker.js';
import { checkHolds, type LoggedEvent } from './seasons-checker.js';

const W = 'w-aggregator';
const G = 'w-grower';
const S = 'w-sfd';

const e = (stream_id: string, type: string, data: Record<string, unknown>): LoggedEvent => ({
  position: 0,
  stream_id,
  type,
  data,
});

const created = (id: string, amount: number, quantityKg: number) => [
  e(`contract-${id}`, 'DeliveryContractCreated', {
    contractId: id,
    aggregatorUserId: 'agg',
    growerId: 'g1',
    growerUserId: 'grower',
    quantityKg,
    amount,
    holdId: `contract-${id}`,
  }),
  e(`wallet-${W}`, 'HoldPlaced', { holdId: `contract-${id}`, walletId: W, amount, purpose: 'x' }),
];

/**
 * A consistent log: the grower owes the SFD a social financing of 3,000 and the aggregator a
 * pineapple advance of 1,000. Contract c1 (2,000 kg for 10,000, held) is confirmed, delivered
 * 1,500 kg (worth 7,500) and run once: the advance 1,000 kept by the aggregator, the SFD
 * repaid 3,000, the grower's net 3,500 paid from the hold (the rest released) and paid out.
 * Contract c2 (4,000) is still open with its hold; c3 (2,000) is canceled, its hold released.
 * Each doctored copy below breaks one thing an invariant guards.
 */
function log(): LoggedEvent[] {
  const events = [
    e(`wallet-${W}`, 'WalletOpened', { walletId: W, ownerUserId: 'agg' }),
    e(`wallet-${G}`, 'WalletOpened', { walletId: G, ownerUserId: 'grower' }),
    e(`wallet-${S}`, 'WalletOpened', { walletId: S, ownerUserId: 'sfd' }),
    e('debt-soc', 'DebtOpened', {
      debtId: 'soc',
      kind: 'FINANCEMENT_SOCIAL',
      creditorUserId: 'sfd',
      debtorGrowerId: 'g1',
      principal: 3_000,
    }),
    e('debt-adv', 'DebtOpened', {
      debtId: 'adv',
      kind: 'AVANCE_SUR_ANANAS',
      creditorUserId: 'agg',
      debtorGrowerId: 'g1',
      principal: 1_000,
    }),
    ...created('c1', 10_000, 2_000),
    e('contract-c1', 'DeliveryContractConfirmed', { contractId: 'c1' }),
    e('contract-c1', 'DeliveryContractAccepted', { contractId: 'c1', method: 'CODE' }),
    e('contract-c1', 'DeliveryRecorded', { contractId: 'c1', deliveredKg: 1_500 }),
    e('contract-c1', 'DeliveryContractSettled', {
      contractId: 'c1',
      deliveredKg: 1_500,
      deliveredAmount: 7_500,
      payableAmount: 7_500,
      shortfall: 0,
      capturedFromHold: 6_500,
      releasedFromHold: 3_500,
      extraFromAvailable: 0,
      recoveries: [
        {
          debtId: 'adv',
          kind: 'AVANCE_SUR_ANANAS',
          creditorUserId: 'agg',
          amount: 1_000,
          to: 'AGGREGATOR',
        },
        {
          debtId: 'soc',
          kind: 'FINANCEMENT_SOCIAL',
          creditorUserId: 'sfd',
          amount: 3_000,
          to: 'SFD',
        },
      ],
      growerNet: 3_500,
      payoutId: 'run-c1',
    }),
    e('debt-adv', 'DebtRecovered', { debtId: 'adv', contractId: 'c1', amount: 1_000 }),
    e('debt-soc', 'DebtRecovered', { debtId: 'soc', contractId: 'c1', amount: 3_000 }),
    ...settlementPaid('c1', G, 3_500),
    ...settlementPaid('c1', S, 3_000),
    e(`wallet-${W}`, 'HoldSettled', {
      holdId: 'contract-c1',
      settlementId: 'run-c1',
      walletId: W,
      payments: [
        { walletId: G, amount: 3_500 },
        { walletId: S, amount: 3_000 },
      ],
      captured: 6_500,
      excess: 0,
      released: 3_500,
      remaining: 0,
      status: 'CAPTURED',
    }),
    e('withdrawal-run-c1', 'WithdrawalRequested', {
      withdrawalId: 'run-c1',
      walletId: G,
      amount: 3_500,
    }),
    ...created('c2', 4_000, 1_000),
    ...created('c3', 2_000, 1_000),
    e('contract-c3', 'DeliveryContractCanceled', { contractId: 'c3', releasedAmount: 2_000 }),
    e(`wallet-${W}`, 'HoldReleased', { holdId: 'contract-c3', walletId: W, amount: 2_000 }),
  ];
  return events.map((event, i) => ({ ...event, position: i + 1 }));
}

function settlementPaid(contractId: string, to: string, amount: number): LoggedEvent[] {
  const settlementId = `run-${contractId}`;
  const holdId = `contract-${contractId}`;
  return [
    e(`wallet-${W}`, 'HoldSettlementPaid', {
      holdId,
      settlementId,
      fromWalletId: W,
      toWalletId: to,
      amount,
      postings: [],
    }),
    e(`wallet-${to}`, 'HoldSettlementReceived', {
      holdId,
      settlementId,
      fromWalletId: W,
      walletId: to,
      amount,
    }),
  ];
}

const failures =
  (check: (events: LoggedEvent[], fail: (d: string) => void) => number) =>
  (events: LoggedEvent[]) => {
    const found: string[] = [];
    check(events, (d) => found.push(d));
    return found;
  };
const netted = (events: LoggedEvent[], ranIds: string[] = ['c1']) => {
  const found: string[] = [];
  checkRunsPaidAsNetted(events, (d) => found.push(d), ranIds);
  return found;
};
const holds = failures(checkContractHolds);
const sfd = failures(checkSfdRepaid);
const once = failures(checkCompletedOnce);
const withEvent = (type: string, change: (data: Record<string, any>) => Record<string, any>) =>
  log().map((x) => (x.type === type ? { ...x, data: change(x.data) } : x));

describe("the bank test's contracts invariants catch what they guard", () => {
  it('a consistent log passes all four (and the seasons hold check leaves contract holds alone)', () => {
    expect(netted(log())).toEqual([]);
    expect(holds(log())).toEqual([]);
    expect(sfd(log())).toEqual([]);
    expect(once(log())).toEqual([]);
    expect(failures(checkHolds)(log())).toEqual([]);
    expect(worthOf(1_500, 10_000, 2_000)).toBe(7_500);
    expect(worthOf(1, 10_000, 3)).toBe(3_333); // floored, never above the exact worth
  });

  it('(a) a grower paid other than its net, a wrong worth, a lost payment fail', () => {
    const overpaid = log().map((x) =>
      x.type === 'HoldSettlementPaid' && x.data.toWalletId === G
        ? { ...x, data: { ...x.data, amount: 4_000 } }
        : x,
    );
    expect(netted(overpaid)).toEqual([
      expect.stringContaining(
        'its settlement paid [["grower",4000],["sfd",3000]], its netting says [["grower",3500],["sfd",3000]]',
      ),
    ]);
    const inflated = withEvent('DeliveryContractSettled', (d) => ({
      ...d,
      deliveredAmount: 8_000,
      payableAmount: 8_000,
      growerNet: 4_000,
    }));
    expect(netted(inflated).join('\n')).toContain('delivered amount 8000, its worth is 7500');
    const unrecovered = log().filter(
      (x) => !(x.type === 'DebtRecovered' && x.data.debtId === 'soc'),
    );
    expect(netted(unrecovered)).toEqual([
      expect.stringContaining(
        'settlement recoveries ["adv:1000","soc:3000"], debts recovered ["adv:1000"]',
      ),
    ]);
    const payout = withEvent('WithdrawalRequested', (d) => ({ ...d, amount: 7_500 }));
    expect(netted(payout)).toEqual([
      expect.stringContaining("payout of 7500, the grower's net is 3500"),
    ]);
    // c2 was named by an acknowledged run (202) but never settled: a lost payment.
    expect(netted(log(), ['c1', 'c2'])).toEqual([
      expect.stringContaining('contract c2 was run (202 acknowledged) but never settled'),
    ]);
    const noSettlement = log().filter((x) => x.type !== 'DeliveryContractSettled');
    expect(netted(noSettlement, []).join('\n')).toContain(
      'contract c1 was never settled yet paid 2 times',
    );
  });

  it('(b) a leaked hold, an open contract without its whole hold, a hold below 0 fail', () => {
    const leaked = log().filter((x) => !(x.type === 'HoldReleased'));
    expect(holds(leaked)).toEqual([
      expect.stringContaining(
        'hold contract-c3: its contract is CANCELED, the hold still ACTIVE (2000)',
      ),
      expect.stringContaining('aggregator agg: contract holds 6000, its open contracts 4000'),
    ]);
    const missing = log().filter(
      (x) => !(x.type === 'HoldPlaced' && x.data.holdId === 'contract-c2'),
    );
    expect(holds(missing)).toEqual([
      expect.stringContaining('contract c2 is open but its hold contract-c2 was never placed'),
      expect.stringContaining('aggregator agg: contract holds 0, its open contracts 4000'),
    ]);
    const below = withEvent('HoldSettled', (d) => ({ ...d, remaining: -1, status: 'ACTIVE' }));
    expect(holds(below).join('\n')).toContain('remaining -1');
    const stray = [
      ...log(),
      e(`wallet-${W}`, 'HoldPlaced', {
        holdId: 'contract-zz',
        walletId: W,
        amount: 5,
        purpose: 'x',
      }),
    ];
    expect(holds(stray)).toEqual([expect.stringContaining('hold contract-zz of wallet')]);
  });

  it('(c) an SFD paid more or less than growers repaid it, a debt over-recovered fail', () => {
    const sfdTwice = [...log(), ...settlementPaid('c1', S, 3_000)];
    expect(sfd(sfdTwice)).toEqual([
      expect.stringContaining('SFD sfd received 6000 from contract runs, growers repaid it 3000'),
    ]);
    const unpaid = log().filter(
      (x) => !(x.type === 'HoldSettlementPaid' && x.data.toWalletId === S),
    );
    expect(sfd(unpaid)).toEqual([
      expect.stringContaining('SFD sfd received 0 from contract runs, growers repaid it 3000'),
    ]);
    const over = withEvent('DebtOpened', (d) =>
      d.debtId === 'soc' ? { ...d, principal: 2_000 } : d,
    );
    expect(sfd(over)).toEqual([
      expect.stringContaining('debt soc recovered 3000, its principal is 2000'),
    ]);
    const misrouted = withEvent('DeliveryContractSettled', (d) => ({
      ...d,
      recoveries: d.recoveries.map((r: Record<string, unknown>) => ({ ...r, to: 'AGGREGATOR' })),
    }));
    expect(sfd(misrouted).join('\n')).toContain('recovered social financing soc for AGGREGATOR');
  });

  it('(d) a contract COMPLETED twice, paid twice, paid out twice, accepted twice or run without its acceptance fails', () => {
    const events = log();
    const settled = events.find((x) => x.type === 'DeliveryContractSettled')!;
    expect(once([...events, settled])).toEqual([
      expect.stringContaining('contract c1 COMPLETED 2 times'),
      expect.stringContaining('contract c1: DeliveryContractSettled after it ended'),
    ]);
    const payout = events.find((x) => x.type === 'WithdrawalRequested')!;
    expect(once([...events, payout])).toEqual([expect.stringContaining('contract c1: 2 payouts')]);
    expect(once([...events, ...settlementPaid('c1', G, 3_500)])).toEqual([
      expect.stringContaining(`settlement run-c1 → ${G} paid 2 times`),
    ]);
    const holdSettled = events.find((x) => x.type === 'HoldSettled')!;
    expect(once([...events, holdSettled])).toEqual([
      expect.stringContaining('contract c1: its hold settled 2 times'),
    ]);
    const accepted = events.find((x) => x.type === 'DeliveryContractAccepted')!;
    expect(once([...events, accepted])).toEqual([
      expect.stringContaining('contract c1: DeliveryContractAccepted after it ended'),
      expect.stringContaining('contract c1: accepted 2 times'),
    ]);
    expect(once(events.filter((x) => x !== accepted))).toEqual([
      expect.stringContaining(
        "contract c1: DeliveryRecorded, DeliveryContractSettled without the grower's acceptance",
      ),
    ]);
    const afterCancel = e('contract-c3', 'DeliveryRecorded', { contractId: 'c3', deliveredKg: 1 });
    expect(once([...events, afterCancel])).toEqual([
      expect.stringContaining('contract c3: DeliveryRecorded after it ended'),
      expect.stringContaining("contract c3: DeliveryRecorded without the grower's acceptance"),
    ]);
  });

  describe('(e) consent by code', () => {
    /** A stand-in for scrypt: the checker only compares what it answers. */
    const hash = async (code: string, salt: string) => `h(${code},${salt})`;
    const issued = (codeId: string, code: string) =>
      e('contract-k1', 'AcceptanceCodeIssued', {
        contractId: 'k1',
        codeId,
        salt: `s-${codeId}`,
        codeHash: `h(${code},s-${codeId})`,
      });
    const rejected = (codeId: string, wrongAttempts: number) =>
      e('contract-k1', 'AcceptanceCodeRejected', { contractId: 'k1', codeId, wrongAttempts });
    const accept = (codeId: string, code: string) => [
      e('contract-k1', 'DeliveryContractConfirmed', { contractId: 'k1' }),
      e('contract-k1', 'DeliveryContractAccepted', {
        contractId: 'k1',
        method: 'CODE',
        codeId,
        codeHash: `h(${code},s-${codeId})`,
        acceptedAt: '2026-12-07T10:00:00.000Z',
      }),
    ];
    const at = Date.parse('2026-12-07T10:00:00.000Z');
    const entry = (
      code: string,
      wrong: boolean,
      outcome: CodeEntry['outcome'],
      sentAt = at - 1,
    ) => ({
      contractId: 'k1',
      code,
      wrong,
      sentAt,
      outcome,
    });
    /** k1: a code 111111 replaced by 222222, a wrong code, then 222222 accepted. */
    const consistent = () => [
      ...created('k1', 5_000, 1_000),
      issued('a', '111111'),
      issued('b', '222222'),
      rejected('b', 1),
      ...accept('b', '222222'),
      e('contract-k1', 'DeliveryRecorded', { contractId: 'k1', deliveredKg: 900 }),
    ];
    const entries = () => [
      entry('999999', true, 'refused'),
      entry('222222', false, 'ack'),
      // Entered again once accepted: the confirmed contract answers its state.
      entry('999999', true, 'ack', at + 5_000),
    ];
    const consent = async (events: LoggedEvent[], list: CodeEntry[] = entries()) => {
      const found: string[] = [];
      await checkConsentByCode(events, list, (d) => found.push(d), { maxWrong: 2, hash });
      return found;
    };

    it('holds on a consistent log', async () => {
      expect(await consent(consistent())).toEqual([]);
    });

    it('an acceptance by a replaced code, by a wrong one, or after the code locked fails', async () => {
      const events = consistent();
      const byOld = events.map((x) =>
        x.type === 'DeliveryContractAccepted' ? accept('a', '111111')[1]! : x,
      );
      expect(await consent(byOld, [])).toEqual([
        'contract k1: accepted with a code that is not its current one',
      ]);
      const byWrong = events.map((x) =>
        x.type === 'DeliveryContractAccepted' ? accept('b', '999999')[1]! : x,
      );
      expect(await consent(byWrong, [])).toEqual([
        "contract k1: accepted with a hash that is not its code's",
      ]);
      const locked = [...events];
      locked.splice(
        locked.indexOf(events.find((x) => x.type === 'AcceptanceCodeRejected')!) + 1,
        0,
        rejected('b', 2),
      );
      expect(await consent(locked, [])).toEqual([
        'contract k1: accepted after its code locked (2 wrong codes)',
      ]);
      const beyond = [...locked];
      beyond.splice(
        beyond.indexOf(locked.find((x) => x.type === 'DeliveryContractConfirmed')!),
        0,
        rejected('b', 3),
      );
      expect(await consent(beyond, [])).toEqual([
        'contract k1: 3 wrong codes recorded, the limit is 2',
        'contract k1: accepted after its code locked (3 wrong codes)',
      ]);
    });

    it('a wrong code acknowledged before the acceptance, or an SMS code that is not the accepted one, fails', async () => {
      expect(await consent(consistent(), [entry('999999', true, 'ack')])).toEqual([
        'contract k1: the wrong code 999999 acknowledged before any acceptance',
      ]);
      expect(await consent(consistent(), [entry('333333', false, 'ack')])).toEqual([
        "contract k1: the code of the grower's SMS is not the code accepted",
      ]);
      const unaccepted = consistent().filter(
        (x) => x.type !== 'DeliveryContractAccepted' && x.type !== 'DeliveryContractConfirmed',
      );
      expect(await consent(unaccepted, [entry('222222', false, 'ack')])).toEqual([
        'contract k1: its code acknowledged, no acceptance in the log',
      ]);
    });
  });
});

describe("the bank test's offline weighing invariant catches what it guards", () => {
  const settled = (contractId: string, key: string, stream = `contract-${contractId}`) => ({
    position: 0,
    stream_id: stream,
    type: 'DeliveryContractSettled',
    data: { contractId },
    metadata: { commandId: `agg:contracts.weigh:${key}` },
  });
  const replay = (
    key: string,
    contractId: string,
    outcome: OfflineWeighing['outcome'],
    growerNet = 3_500,
  ): OfflineWeighing => ({
    key,
    userId: 'agg',
    outcome,
    ...(outcome === 'ack'
      ? { status: 201, body: { payoutId: `run-${contractId}`, growerNet } }
      : {}),
    ...(outcome === 'refused' ? { status: 422 } : {}),
    meta: { contractId },
  });
  const check = (events: ReturnType<typeof settled>[], replays: OfflineWeighing[]) => {
    const found: string[] = [];
    checkOfflineWeighings(events, replays, (d) => found.push(d));
    return found;
  };

  const already = (key: string, contractId: string): OfflineWeighing => {
    const r = replay(key, contractId, 'ack');
    return { ...r, body: { ...r.body, alreadySettled: true } };
  };

  it('passes: acknowledged twice with one answer and settled once; one weighed by another scale refused', () => {
    expect(
      check(
        [settled('c1', 'k1'), settled('c2', 'online'), settled('c3', 'online')],
        [
          replay('k1', 'c1', 'ack'),
          replay('k1', 'c1', 'ack'),
          replay('k2', 'c2', 'refused'),
          // The same weighing recorded meanwhile by the desk: already settled, nothing written.
          already('k3', 'c3'),
          already('k3', 'c3'),
        ],
      ),
    ).toEqual([]);
  });

  it('fails: acknowledged as already settled while its contract was never settled, or twice', () => {
    expect(check([], [already('k6', 'c6')])).toEqual([
      'offline weighing k6: acknowledged as already settled, its contract settled 0 times (0 under its key)',
    ]);
    expect(check([settled('c7', 'a'), settled('c7', 'b')], [already('k7', 'c7')])).toEqual([
      'offline weighing k7: acknowledged as already settled, its contract settled 2 times (0 under its key)',
    ]);
  });

  it('fails: settled twice, acknowledged but not settled, another contract, two answers, lost', () => {
    expect(check([settled('c1', 'k1'), settled('c1', 'k1')], [replay('k1', 'c1', 'ack')])).toEqual([
      'offline weighing k1: settled 2 times',
      'offline weighing k1: acknowledged 1 times, settled 2 times',
    ]);
    expect(check([], [replay('k2', 'c2', 'ack')])).toEqual([
      'offline weighing k2: acknowledged 1 times, settled 0 times',
    ]);
    expect(check([settled('c3', 'k3', 'contract-c9')], [replay('k3', 'c3', 'refused')])).toEqual([
      'offline weighing k3: settled contract-c9, not contract-c3',
    ]);
    expect(
      check([settled('c4', 'k4')], [replay('k4', 'c4', 'ack'), replay('k4', 'c4', 'ack', 4_000)]),
    ).toEqual([expect.stringContaining('offline weighing k4: 2 different acknowledgements')]);
    expect(check([], [replay('k5', 'c5', 'unack'), replay('k5', 'c5', 'unack')])).toEqual([
      'offline weighing k5: no answer after the faults, the weighing is lost',
    ]);
  });
});

describe("the bank test's consent-by-reply invariant (f) catches what it guards", () => {
  /** A stand-in for the keyed hash: the checker only compares what it answers. */
  const hash = async (code: string, salt: string) => `h(${code},${salt})`;
  const PHONE = '+2290197010001';
  const T = Date.parse('2026-12-07T10:00:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  type Keyed = LoggedEvent & { metadata?: Record<string, any> };
  const keyed = (event: LoggedEvent, sid?: string): Keyed => ({
    ...event,
    metadata: sid ? { commandId: replyKey('grower', sid) } : {},
  });
  const issued = (codeId: string, code: string, at = T) =>
    e('contract-r1', 'AcceptanceCodeIssued', {
      contractId: 'r1',
      codeId,
      phone: PHONE,
      salt: `s-${codeId}`,
      codeHash: `h(${code},s-${codeId})`,
      issuedAt: iso(at),
    });
  const rejected = (sid: string | undefined, wrongAttempts: number, at = T + 1_000) =>
    keyed(
      e('contract-r1', 'AcceptanceCodeRejected', {
        contractId: 'r1',
        codeId: 'a',
        enteredBy: 'grower',
        wrongAttempts,
        at: iso(at),
      }),
      sid,
    );
  const accept = (sid: string | undefined, code = '123456', phone = PHONE): Keyed[] => [
    keyed(e('contract-r1', 'DeliveryContractConfirmed', { contractId: 'r1' }), sid),
    keyed(
      e('contract-r1', 'DeliveryContractAccepted', {
        contractId: 'r1',
        method: 'CODE',
        codeId: 'a',
        codeHash: `h(${code},s-a)`,
        phone,
        acceptedBy: 'grower',
        acceptedAt: iso(T + 2_000),
      }),
      sid,
    ),
  ];
  /** r1 offered with 123456: a wrong reply (SMW), then the right one (SMR) delivered twice. */
  const consistent = (): Keyed[] => [
    ...created('r1', 5_000, 1_000),
    issued('a', '123456'),
    rejected('SMW', 1),
    ...accept('SMR'),
  ];
  const reply = (sid: string, code: string, wrong: boolean, at = T + 3_000): ReplyEntry => ({
    contractId: 'r1',
    growerUserId: 'grower',
    phone: PHONE,
    sid,
    code,
    wrong,
    answeredAt: at,
    outcome: 'ack',
  });
  const replies = () => [
    reply('SMW', '000001', true),
    reply('SMR', '123456', false),
    reply('SMR', '123456', false),
  ];
  const check = async (events: Keyed[], list: ReplyEntry[] = replies()) => {
    const found: string[] = [];
    await checkConsentByReply(events, list, (d) => found.push(d), { maxWrong: 2, hash });
    return found;
  };

  it('holds on a consistent log', async () => {
    expect(await check(consistent())).toEqual([]);
  });

  it('one MessageSid delivered twice that spends two attempts, or accepts twice, fails', async () => {
    const twice = [...created('r1', 5_000, 1_000), issued('a', '123456')];
    expect(
      await check([...twice, rejected('SMW', 1), rejected('SMW', 2), ...accept('SMR')]),
    ).toEqual(['message SMW: 2 attempts spent on contract r1']);
    expect(await check([...twice, rejected('SMW', 1), ...accept('SMR'), ...accept('SMR')])).toEqual(
      ['message SMR: accepted 2 times'],
    );
  });

  it('a wrong reply that accepts, or a message that both accepts and spends an attempt, fails', async () => {
    const base = [...created('r1', 5_000, 1_000), issued('a', '123456')];
    expect(await check([...base, rejected('SMW', 1), ...accept('SMW', '000001')])).toEqual([
      'contract r1: accepted by the wrong code 000001',
      'message SMW: accepted a contract and spent 1 attempts',
      'message SMW: the wrong code accepted',
    ]);
  });

  it('an acknowledged right reply whose contract was never accepted fails, unless canceled or locked first', async () => {
    const unaccepted = consistent().filter(
      (x) => x.type !== 'DeliveryContractConfirmed' && x.type !== 'DeliveryContractAccepted',
    );
    expect(await check(unaccepted)).toEqual([
      'contract r1: the right reply SMR acknowledged, the contract never accepted',
    ]);
    const canceled = e('contract-r1', 'DeliveryContractCanceled', {
      contractId: 'r1',
      at: iso(T + 2_500),
    });
    expect(await check([...unaccepted, canceled])).toEqual([]);
    const lockedAfter = [...unaccepted, rejected('SMX', 2, T + 10_000)];
    const withX = [...replies(), reply('SMX', '000002', true)];
    expect(await check(lockedAfter, withX)).toEqual([
      'contract r1: the right reply SMR acknowledged, the contract never accepted',
    ]);
    const lockedBefore = [...unaccepted, rejected('SMX', 2, T + 2_000)];
    expect(await check(lockedBefore, withX)).toEqual([]);
  });

  it('a reply’s effect under no message’s key, for another phone, or without its confirmation, fails', async () => {
    const base = [...created('r1', 5_000, 1_000), issued('a', '123456')];
    expect(await check([...base, rejected(undefined, 1), ...accept('SMR')])).toEqual([
      "contract r1: 1 wrong attempts of its grower under no message's key",
    ]);
    expect(
      await check([...base, rejected('SMW', 1), ...accept('SMR', '123456', '+2290100000000')]),
    ).toEqual([
      'contract r1: accepted by reply for +2290100000000, the reply came from +2290197010001',
    ]);
    expect(await check([...base, rejected('SMW', 1), accept('SMR')[1]!])).toEqual([
      'contract r1: accepted by reply without its DeliveryContractConfirmed',
    ]);
    expect(await check([...base, rejected('SMW', 1), ...accept(undefined)])).toEqual([
      'contract r1: accepted by its grower without a reply of his for it (key )',
    ]);
  });

  it('wrong attempts by reply beyond the limit fail (e), whoever entered them', async () => {
    const beyond = [
      ...created('r1', 5_000, 1_000),
      issued('a', '123456'),
      rejected('SMW', 1),
      rejected('SMX', 2),
      rejected('SMY', 3),
    ];
    const found: string[] = [];
    await checkConsentByCode(beyond, [], (d) => found.push(d), { maxWrong: 2, hash });
    expect(found).toEqual(['contract r1: 3 wrong codes recorded, the limit is 2']);
  });
});
