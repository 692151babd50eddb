import {
  evolveWallet,
  initialWalletState,
  type WalletEvent,
  type WalletState,
} from '@filiere/api/wallet';

/** An event of the log as the checker reads it. */
export interface LoggedEvent {
  position: number;
  stream_id: string;
  type: string;
  data: Record<string, any>;
}

type Fail = (detail: string) => void;

interface RequestFacts {
  requestId: number;
  type: string;
  amount: number;
  growerId: string;
  industrialUserId: string | null;
  accepted: Record<string, any>[];
  rejected: number;
  delivered: Record<string, any>[];
}

const INPUT_HOLD_PREFIX = 'input-assignment-';

function requestsOf(events: LoggedEvent[]): Map<number, RequestFacts> {
  const requests = new Map<number, RequestFacts>();
  for (const e of events) {
    if (!e.stream_id.startsWith('seasonrequest-')) continue;
    const id = Number(e.data.requestId);
    if (e.type === 'GrowerRequestFiled') {
      requests.set(id, {
        requestId: id,
        type: e.data.type,
        amount: e.data.amount,
        growerId: e.data.growerId,
        industrialUserId: e.data.industrialUserId,
        accepted: [],
        rejected: 0,
        delivered: [],
      });
      continue;
    }
    const r = requests.get(id);
    if (!r) continue;
    if (e.type === 'GrowerRequestAccepted') r.accepted.push(e.data);
    if (e.type === 'GrowerRequestRejected') r.rejected++;
    if (e.type === 'InputDelivered') r.delivered.push(e.data);
  }
  return requests;
}

/**
 * Each INPUT request is delivered at most once, only once accepted; a delivered one paid its
 * provider exactly once its amount from the aggregator's hold (one HoldSettlementPaid and one
 * HoldSettled for `delivery-<id>`) and owes exactly one AVANCE_SUR_INTRANT debt of that
 * principal; an undelivered one paid and owes nothing. Returns how many requests it checked.
 */
export function checkDeliveriesPaidOnce(events: LoggedEvent[], fail: Fail): number {
  const requests = requestsOf(events);
  const paid = new Map<string, LoggedEvent[]>();
  const settled = new Map<string, number>();
  const debts = new Map<string, LoggedEvent[]>();
  for (const e of events) {
    if (e.type === 'HoldSettlementPaid' && String(e.data.settlementId).startsWith('delivery-')) {
      const list = paid.get(e.data.settlementId) ?? [];
      list.push(e);
      paid.set(e.data.settlementId, list);
    }
    if (e.type === 'HoldSettled' && String(e.data.settlementId).startsWith('delivery-'))
      settled.set(e.data.settlementId, (settled.get(e.data.settlementId) ?? 0) + 1);
    if (e.type === 'DebtOpened' && e.data.kind === 'AVANCE_SUR_INTRANT') {
      const list = debts.get(e.data.sourceContractId) ?? [];
      list.push(e);
      debts.set(e.data.sourceContractId, list);
    }
  }
  for (const r of requests.values()) {
    const settlement = `delivery-${r.requestId}`;
    const payments = paid.get(settlement) ?? [];
    const owed = debts.get(`request-${r.requestId}`) ?? [];
    paid.delete(settlement);
    if (r.delivered.length > 1)
      fail(`request ${r.requestId} delivered ${r.delivered.length} times`);
    if (r.delivered.length === 0) {
      if (payments.length || owed.length)
        fail(
          `request ${r.requestId} was never delivered yet paid ${payments.length} times and owes ${owed.length} debts`,
        );
      continue;
    }
    if (r.type !== 'INPUT' || r.accepted.length !== 1)
      fail(`request ${r.requestId} (${r.type}) delivered with ${r.accepted.length} acceptances`);
    if (payments.length !== 1 || (settled.get(settlement) ?? 0) !== 1)
      fail(
        `delivery of request ${r.requestId}: ${payments.length} provider payments, ${settled.get(settlement) ?? 0} settlements (expected 1 each)`,
      );
    for (const p of payments)
      if (p.data.amount !== r.amount)
        fail(`delivery of request ${r.requestId} paid ${p.data.amount}, its amount is ${r.amount}`);
    if (owed.length !== 1 || owed[0]!.data.principal !== r.amount)
      fail(
        `delivery of request ${r.requestId}: ${owed.length} debts (${owed.map((d) => d.data.principal).join(', ')}), expected one of ${r.amount}`,
      );
    else if (owed[0]!.data.debtorGrowerId !== r.growerId)
      fail(`delivery of request ${r.requestId}: the debt's debtor is not the request's grower`);
  }
  for (const [settlement, list] of paid)
    fail(`${settlement} paid ${list.length} times for no delivered request`);
  return requests.size;
}

/**
 * Acceptances move money once: a request is accepted at most once and never both accepted
 * and rejected; INPUT codes are unique; an accepted PINEAPLE request paid its grower exactly
 * one transfer (`request-<id>`) of its amount and opened exactly one debt of that principal.
 */
export function checkAcceptancesOnce(events: LoggedEvent[], fail: Fail): number {
  const requests = requestsOf(events);
  const transfers = new Map<string, number[]>();
  const debts = new Map<string, number[]>();
  for (const e of events) {
    if (e.type === 'TransferSent' && String(e.data.reference).startsWith('request-')) {
      transfers.set(e.data.reference, [...(transfers.get(e.data.reference) ?? []), e.data.amount]);
    }
    if (e.type === 'DebtOpened')
      debts.set(e.data.debtId, [...(debts.get(e.data.debtId) ?? []), e.data.principal]);
  }
  const codes = new Map<string, number>();
  for (const r of requests.values()) {
    if (r.accepted.length > 1) fail(`request ${r.requestId} accepted ${r.accepted.length} times`);
    if (r.accepted.length && r.rejected) fail(`request ${r.requestId} accepted and rejected`);
    const accepted = r.accepted[0];
    const moved = transfers.get(`request-${r.requestId}`) ?? [];
    if (r.type === 'INPUT' && accepted) {
      const code = String(accepted.code);
      if (codes.has(code))
        fail(`code ${code} given to requests ${codes.get(code)} and ${r.requestId}`);
      codes.set(code, r.requestId);
    }
    if (r.type === 'PINEAPLE') {
      const expected = accepted ? [r.amount] : [];
      const debt = accepted?.debtId ? (debts.get(accepted.debtId) ?? []) : [];
      if (JSON.stringify(moved) !== JSON.stringify(expected))
        fail(
          `PINEAPLE request ${r.requestId}: transfers ${JSON.stringify(moved)}, expected ${JSON.stringify(expected)}`,
        );
      if (accepted && JSON.stringify(debt) !== JSON.stringify(expected))
        fail(
          `PINEAPLE request ${r.requestId}: debts ${JSON.stringify(debt)}, expected ${JSON.stringify(expected)}`,
        );
    }
  }
  return requests.size;
}

/**
 * Holds: no hold's remaining amount is ever below zero (each wallet folded in log order);
 * at the end every providers' hold (`input-assignment-<id>`) is ACTIVE exactly while its
 * assignment is (a ban releases it), with remaining = its amount − the deliveries paid from
 * it; and no other hold is left ACTIVE (none leaked) — delivery contracts' holds
 * (`contract-<id>`) are checked against their contracts by `checkContractHolds`. Returns how many holds it checked.
 */
export function checkHolds(events: LoggedEvent[], fail: Fail): number {
  const wallets = new Map<string, WalletState>();
  const assignments = new Map<string, { amount: number; banned: boolean }>();
  const paidFrom = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'InputProviderAssigned')
      assignments.set(e.data.holdId, { amount: e.data.amount, banned: false });
    if (e.type === 'InputProviderBanned') {
      for (const [holdId, a] of assignments)
        if (holdId === `${INPUT_HOLD_PREFIX}${e.data.assignmentId}`) a.banned = true;
    }
    if (e.type === 'HoldSettlementPaid')
      paidFrom.set(e.data.holdId, (paidFrom.get(e.data.holdId) ?? 0) + e.data.amount);
    if (!e.stream_id.startsWith('wallet-')) continue;
    const walletId = e.stream_id.slice('wallet-'.length);
    const after = evolveWallet(
      wallets.get(walletId) ?? initialWalletState(),
      e as unknown as WalletEvent,
    );
    wallets.set(walletId, after);
    for (const [holdId, hold] of after.holds) {
      if (hold.remaining < 0)
        fail(
          `hold ${holdId} of wallet ${walletId} at ${e.position} (${e.type}): remaining ${hold.remaining}`,
        );
    }
  }
  let checked = 0;
  for (const [walletId, wallet] of wallets) {
    for (const [holdId, hold] of wallet.holds) {
      if (holdId.startsWith('contract-')) continue;
      checked++;
      const assignment = assignments.get(holdId);
      if (!assignment) {
        if (hold.status === 'ACTIVE')
          fail(
            `hold ${holdId} of wallet ${walletId} left ACTIVE (${hold.remaining}) with no owner`,
          );
        continue;
      }
      const expected = assignment.amount - (paidFrom.get(holdId) ?? 0);
      if (assignment.banned && hold.status === 'ACTIVE')
        fail(`hold ${holdId}: its assignment is banned, the hold still ACTIVE (${hold.remaining})`);
      // An ACTIVE assignment keeps its hold ACTIVE until deliveries have used its whole right:
      // the settlement that leaves nothing closes it (CAPTURED, remaining 0), as the 10-minute
      // run's deliveries do. Closed with right left, the right would be lost to the provider.
      const usedUp = hold.status === 'CAPTURED' && expected === 0;
      if (!assignment.banned && hold.status !== 'ACTIVE' && !usedUp)
        fail(
          `hold ${holdId}: its assignment is ACTIVE, the hold ${hold.status} with ${expected} of its right left`,
        );
      if (hold.status === 'ACTIVE' && hold.remaining !== expected)
        fail(
          `hold ${holdId}: remaining ${hold.remaining}, its amount less its deliveries is ${expected}`,
        );
    }
  }
  for (const holdId of assignments.keys())
    if (![...wallets.values()].some((w) => w.holds.has(holdId)))
      fail(`assignment hold ${holdId} was never placed`);
  return checked;
}

/** A replayed offline delivery as the checker reads it (workload.ts 'offline-deliver'). */
export interface OfflineReplay {
  key?: string;
  outcome: 'ack' | 'refused' | 'unack';
  status?: number;
  body?: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/**
 * The offline client's queue, replayed after the faults: each queued action takes effect at
 * most once (its request delivered at most once), every acknowledged one exactly once (its
 * request delivered once, and each acknowledgement of its key the same answer: the one
 * delivery), and none is left without an answer once the network is back (nothing lost).
 * Returns how many queued actions it checked.
 */
export function checkOfflineReplays(
  events: LoggedEvent[],
  replays: OfflineReplay[],
  fail: Fail,
): number {
  const delivered = new Map<number, number>();
  for (const e of events) {
    if (e.type === 'InputDelivered') {
      const id = Number(e.data.requestId ?? String(e.stream_id).replace('seasonrequest-', ''));
      delivered.set(id, (delivered.get(id) ?? 0) + 1);
    }
  }
  const byKey = new Map<string, OfflineReplay[]>();
  for (const r of replays) {
    const list = byKey.get(r.key ?? '') ?? [];
    list.push(r);
    byKey.set(r.key ?? '', list);
  }
  for (const [key, list] of byKey) {
    const requestId = Number(list[0]!.meta.requestId);
    const count = delivered.get(requestId) ?? 0;
    if (count > 1) fail(`offline ${key}: request ${requestId} delivered ${count} times`);
    const acks = list.filter((r) => r.outcome === 'ack');
    if (acks.length > 0 && count !== 1) {
      fail(
        `offline ${key}: acknowledged ${acks.length} times, request ${requestId} delivered ${count} times`,
      );
    }
    const answers = new Set(
      acks.map((r) => `${String(r.body?.deliveredAt)}|${String(r.body?.debtId)}`),
    );
    if (answers.size > 1) {
      fail(
        `offline ${key}: ${answers.size} different acknowledgements of one key (${[...answers].join(', ')})`,
      );
    }
    if (list.every((r) => r.outcome === 'unack')) {
      fail(`offline ${key}: no answer after the faults, the action is lost`);
    }
  }
  return byKey.size;
}
