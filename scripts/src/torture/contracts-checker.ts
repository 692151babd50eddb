import {
  evolveWallet,
  initialWalletState,
  type WalletEvent,
  type WalletState,
} from '@filiere/api/wallet';
import type { LoggedEvent } from './seasons-checker.js';

type Fail = (detail: string) => void;

/** The settlement id (and payout withdrawal id) of a contract's run: `run-<contractId>`. */
const runIdOf = (contractId: string) => `run-${contractId}`;

interface ContractFacts {
  contractId: string;
  aggregatorUserId: string;
  growerUserId: string;
  quantityKg: number;
  amount: number;
  holdId: string;
  delivered: Record<string, any>[];
  settled: Record<string, any>[];
  canceled: number;
  /** Event types after the contract was COMPLETED or CANCELED (there must be none). */
  afterEnd: string[];
  /** The grower's acceptances (DeliveryContractAccepted): at most one. */
  accepted: number;
  /** Deliveries and settlements appended before any acceptance (there must be none). */
  unaccepted: string[];
}

/** What the log says of each delivery contract (stream `contract-<id>`), in log order. */
function contractsOf(events: LoggedEvent[]): Map<string, ContractFacts> {
  const contracts = new Map<string, ContractFacts>();
  for (const e of events) {
    if (!e.stream_id.startsWith('contract-')) continue;
    const id = String(e.data.contractId);
    if (e.type === 'DeliveryContractCreated') {
      contracts.set(id, {
        contractId: id,
        aggregatorUserId: e.data.aggregatorUserId,
        growerUserId: e.data.growerUserId,
        quantityKg: e.data.quantityKg,
        amount: e.data.amount,
        holdId: e.data.holdId,
        delivered: [],
        settled: [],
        canceled: 0,
        afterEnd: [],
        accepted: 0,
        unaccepted: [],
      });
      continue;
    }
    const c = contracts.get(id);
    if (!c) continue;
    if (c.settled.length || c.canceled) c.afterEnd.push(e.type);
    if (e.type === 'DeliveryContractAccepted') c.accepted++;
    if ((e.type === 'DeliveryRecorded' || e.type === 'DeliveryContractSettled') && !c.accepted)
      c.unaccepted.push(e.type);
    if (e.type === 'DeliveryRecorded') c.delivered.push(e.data);
    if (e.type === 'DeliveryContractSettled') c.settled.push(e.data);
    if (e.type === 'DeliveryContractCanceled') c.canceled++;
  }
  return contracts;
}

/** Wallet id → its owner's user id (`WalletOpened`). */
function ownersOf(events: LoggedEvent[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const e of events)
    if (e.type === 'WalletOpened') owners.set(e.data.walletId, e.data.ownerUserId);
  return owners;
}

function groupBy(events: LoggedEvent[], type: string, key: (e: LoggedEvent) => string) {
  const groups = new Map<string, LoggedEvent[]>();
  for (const e of events) {
    if (e.type !== type) continue;
    const k = key(e);
    const list = groups.get(k);
    if (list) list.push(e);
    else groups.set(k, [e]);
  }
  return groups;
}

/** floor(deliveredKg × amount / quantityKg), exactly (BigInt), as the run computes a worth. */
export function worthOf(deliveredKg: number, amount: number, quantityKg: number): number {
  return Number((BigInt(deliveredKg) * BigInt(amount)) / BigInt(quantityKg));
}

/**
 * (a) Each run contract paid exactly once with the amount its netting says. For every
 * `DeliveryContractSettled`: it follows the contract's one recorded delivery, of the same kg;
 * its worth is floor(deliveredKg × amount / quantityKg); the payable is the worth, or the
 * held amount when short (shortfall = worth − payable); payable = grower net + Σ recoveries;
 * each recovery is exactly one `DebtRecovered` {debt, contract, amount} and each such event
 * is one of its recoveries; the hold's settlement `run-<id>` paid the grower exactly its net
 * and each SFD exactly its recoveries (nothing else, nobody else); the payout `run-<id>`, when
 * there is one, is the grower's net. And every contract named by an acknowledged run
 * (`ranIds`: the 202 says each was delivered or paid) is settled: no payment lost.
 * Returns how many settled contracts it checked.
 */
export function checkRunsPaidAsNetted(
  events: LoggedEvent[],
  fail: Fail,
  ranIds: Iterable<string> = [],
): number {
  const contracts = contractsOf(events);
  const owners = ownersOf(events);
  const recovered = groupBy(events, 'DebtRecovered', (e) => String(e.data.contractId));
  const paid = groupBy(events, 'HoldSettlementPaid', (e) => String(e.data.settlementId));
  const payouts = groupBy(events, 'WithdrawalRequested', (e) => String(e.data.withdrawalId));
  for (const c of contracts.values()) {
    const name = `contract ${c.contractId}`;
    const s = c.settled[0];
    const payments = paid.get(runIdOf(c.contractId)) ?? [];
    const recoveries = recovered.get(c.contractId) ?? [];
    const payout = payouts.get(runIdOf(c.contractId)) ?? [];
    if (!s) {
      if (payments.length || recoveries.length || payout.length)
        fail(
          `${name} was never settled yet paid ${payments.length} times, recovered ${recoveries.length} debts and paid out ${payout.length} times`,
        );
      continue;
    }
    const delivery = c.delivered[0];
    if (!delivery) {
      fail(`${name} was settled without a recorded delivery`);
      continue;
    }
    if (s.deliveredKg !== delivery.deliveredKg)
      fail(`${name} settled ${s.deliveredKg} kg, ${delivery.deliveredKg} kg were delivered`);
    const worth = worthOf(delivery.deliveredKg, c.amount, c.quantityKg);
    if (s.deliveredAmount !== worth)
      fail(`${name}: delivered amount ${s.deliveredAmount}, its worth is ${worth}`);
    const payable = s.payableAmount as number;
    if (payable + s.shortfall !== worth || (payable !== worth && payable !== c.amount))
      fail(
        `${name}: payable ${payable} with shortfall ${s.shortfall}, worth ${worth}, held ${c.amount}`,
      );
    const recoveredSum = (s.recoveries as { amount: number }[]).reduce((t, r) => t + r.amount, 0);
    if (s.growerNet + recoveredSum !== payable)
      fail(`${name}: net ${s.growerNet} + recoveries ${recoveredSum} ≠ payable ${payable}`);
    // Recoveries: the settlement's list and the debts' DebtRecovered events are the same.
    const listed = (s.recoveries as { debtId: string; amount: number }[])
      .map((r) => `${r.debtId}:${r.amount}`)
      .sort();
    const logged = recoveries.map((e) => `${e.data.debtId}:${e.data.amount}`).sort();
    if (JSON.stringify(listed) !== JSON.stringify(logged))
      fail(
        `${name}: settlement recoveries ${JSON.stringify(listed)}, debts recovered ${JSON.stringify(logged)}`,
      );
    // The money: the grower its net, each SFD its recoveries, from the hold's settlement.
    const expected = new Map<string, number>();
    if (s.growerNet > 0) expected.set(c.growerUserId, s.growerNet);
    for (const r of s.recoveries as { to: string; creditorUserId: string; amount: number }[])
      if (r.to === 'SFD')
        expected.set(r.creditorUserId, (expected.get(r.creditorUserId) ?? 0) + r.amount);
    const got = new Map<string, number>();
    for (const p of payments) {
      const owner = owners.get(p.data.toWalletId) ?? `wallet ${p.data.toWalletId}`;
      got.set(owner, (got.get(owner) ?? 0) + p.data.amount);
    }
    const show = (m: Map<string, number>) => JSON.stringify([...m].sort());
    if (show(expected) !== show(got))
      fail(`${name}: its settlement paid ${show(got)}, its netting says ${show(expected)}`);
    if (payout.length > 1) fail(`${name}: ${payout.length} payouts requested`);
    for (const w of payout)
      if (w.data.amount !== s.growerNet)
        fail(`${name}: payout of ${w.data.amount}, the grower's net is ${s.growerNet}`);
    if ((s.payoutId ?? null) !== (payout.length ? runIdOf(c.contractId) : null))
      fail(`${name}: settled naming payout ${s.payoutId}, ${payout.length} payouts requested`);
  }
  for (const id of new Set(ranIds)) {
    const c = contracts.get(id);
    if (!c?.settled.length)
      fail(`contract ${id} was run (202 acknowledged) but never settled: a lost payment`);
  }
  return [...contracts.values()].filter((c) => c.settled.length).length;
}

/**
 * (b) Holds equal the open contracts' amounts. Each contract's hold (`contract-<id>` on its
 * aggregator's wallet, placed with it) never goes below 0; at the end it is ACTIVE with its
 * whole amount while the contract is open (not COMPLETED nor CANCELED) and closed once it is
 * (captured by the run, released by the cancel); no contract hold exists without its
 * contract; and per aggregator wallet the ACTIVE contract holds sum to its open contracts'
 * amounts (none leaked). Returns how many contract holds it checked.
 */
export function checkContractHolds(events: LoggedEvent[], fail: Fail): number {
  const contracts = contractsOf(events);
  const byHold = new Map([...contracts.values()].map((c) => [c.holdId, c]));
  const owners = ownersOf(events);
  const wallets = new Map<string, WalletState>();
  for (const e of events) {
    if (!e.stream_id.startsWith('wallet-')) continue;
    const walletId = e.stream_id.slice('wallet-'.length);
    const after = evolveWallet(
      wallets.get(walletId) ?? initialWalletState(),
      e as unknown as WalletEvent,
    );
    wallets.set(walletId, after);
    const holdId = e.data.holdId as string | undefined;
    const hold = holdId?.startsWith('contract-') ? after.holds.get(holdId) : undefined;
    if (hold && hold.remaining < 0)
      fail(`hold ${holdId} at ${e.position} (${e.type}): remaining ${hold.remaining}`);
  }
  let checked = 0;
  const heldBy = new Map<string, number>();
  for (const [walletId, wallet] of wallets) {
    for (const [holdId, hold] of wallet.holds) {
      if (!holdId.startsWith('contract-')) continue;
      checked++;
      const c = byHold.get(holdId);
      if (!c) {
        fail(`hold ${holdId} of wallet ${walletId} has no contract`);
        continue;
      }
      const owner = owners.get(walletId);
      if (owner !== c.aggregatorUserId)
        fail(`hold ${holdId} is on wallet ${walletId}, not its aggregator's`);
      const open = !c.settled.length && !c.canceled;
      if (open && (hold.status !== 'ACTIVE' || hold.remaining !== c.amount))
        fail(
          `hold ${holdId}: its contract is open (${c.amount}), the hold ${hold.status} with ${hold.remaining}`,
        );
      if (!open && hold.status === 'ACTIVE')
        fail(
          `hold ${holdId}: its contract is ${c.canceled ? 'CANCELED' : 'COMPLETED'}, the hold still ACTIVE (${hold.remaining})`,
        );
      if (hold.status === 'ACTIVE')
        heldBy.set(c.aggregatorUserId, (heldBy.get(c.aggregatorUserId) ?? 0) + hold.remaining);
    }
  }
  const owed = new Map<string, number>();
  for (const c of contracts.values()) {
    if (c.settled.length || c.canceled) continue;
    owed.set(c.aggregatorUserId, (owed.get(c.aggregatorUserId) ?? 0) + c.amount);
    if (![...wallets.values()].some((w) => w.holds.has(c.holdId)))
      fail(`contract ${c.contractId} is open but its hold ${c.holdId} was never placed`);
  }
  for (const userId of new Set([...owed.keys(), ...heldBy.keys()]))
    if ((owed.get(userId) ?? 0) !== (heldBy.get(userId) ?? 0))
      fail(
        `aggregator ${userId}: contract holds ${heldBy.get(userId) ?? 0}, its open contracts ${owed.get(userId) ?? 0}`,
      );
  return checked;
}

/**
 * (c) Each SFD repaid exactly what growers owed it. No debt is recovered above its principal
 * nor twice by one contract; every FINANCEMENT_SOCIAL recovery names its debt's SFD; and each
 * SFD's wallet received from contract runs (`run-*` settlements) exactly the sum of the
 * recoveries of the social financings owed to it. Returns how many social debts it checked.
 */
export function checkSfdRepaid(events: LoggedEvent[], fail: Fail): number {
  const owners = ownersOf(events);
  const debts = new Map<string, { kind: string; creditor: string; principal: number }>();
  const recovered = new Map<string, number>();
  const byContract = new Set<string>();
  const owedTo = new Map<string, number>();
  const received = new Map<string, number>();
  let social = 0;
  for (const e of events) {
    if (e.type === 'DebtOpened') {
      debts.set(e.data.debtId, {
        kind: e.data.kind,
        creditor: e.data.creditorUserId,
        principal: e.data.principal,
      });
      if (e.data.kind === 'FINANCEMENT_SOCIAL') social++;
    }
    if (e.type === 'DebtRecovered') {
      const debt = debts.get(e.data.debtId);
      const pair = `${e.data.debtId}/${e.data.contractId}`;
      if (byContract.has(pair))
        fail(`debt ${e.data.debtId} recovered twice by contract ${e.data.contractId}`);
      byContract.add(pair);
      const total = (recovered.get(e.data.debtId) ?? 0) + e.data.amount;
      recovered.set(e.data.debtId, total);
      if (!debt) fail(`debt ${e.data.debtId} recovered at ${e.position} before it was opened`);
      else if (total > debt.principal)
        fail(`debt ${e.data.debtId} recovered ${total}, its principal is ${debt.principal}`);
      if (debt?.kind === 'FINANCEMENT_SOCIAL')
        owedTo.set(debt.creditor, (owedTo.get(debt.creditor) ?? 0) + e.data.amount);
    }
    if (e.type === 'DeliveryContractSettled') {
      for (const r of e.data.recoveries as Record<string, any>[]) {
        const debt = debts.get(r.debtId);
        if (
          debt?.kind === 'FINANCEMENT_SOCIAL' &&
          (r.to !== 'SFD' || r.creditorUserId !== debt.creditor)
        )
          fail(
            `contract ${e.data.contractId} recovered social financing ${r.debtId} for ${r.to} ${r.creditorUserId}, its SFD is ${debt.creditor}`,
          );
      }
    }
    if (e.type === 'HoldSettlementPaid' && String(e.data.settlementId).startsWith('run-')) {
      const owner = owners.get(e.data.toWalletId);
      if (owner) received.set(owner, (received.get(owner) ?? 0) + e.data.amount);
    }
  }
  for (const sfd of owedTo.keys())
    if ((received.get(sfd) ?? 0) !== owedTo.get(sfd))
      fail(
        `SFD ${sfd} received ${received.get(sfd) ?? 0} from contract runs, growers repaid it ${owedTo.get(sfd)}`,
      );
  // An SFD paid by runs though nothing it financed was recovered.
  const creditors = new Set(
    [...debts.values()].filter((d) => d.kind === 'FINANCEMENT_SOCIAL').map((d) => d.creditor),
  );
  for (const [userId, amount] of received)
    if (creditors.has(userId) && !owedTo.has(userId))
      fail(`SFD ${userId} received ${amount} from contract runs, growers repaid it nothing`);
  return social;
}

/**
 * (d) No contract COMPLETED twice, no second payout: per contract at most one
 * `DeliveryContractSettled`, one `HoldSettled` of `run-<id>`, one payment per payee of that
 * settlement and one payout withdrawal; no event on a contract after it is COMPLETED or
 * CANCELED. Returns how many contracts it checked.
 */
export function checkCompletedOnce(events: LoggedEvent[], fail: Fail): number {
  const contracts = contractsOf(events);
  const settledHolds = groupBy(events, 'HoldSettled', (e) => String(e.data.settlementId));
  const payments = groupBy(
    events,
    'HoldSettlementPaid',
    (e) => `${e.data.settlementId} → ${e.data.toWalletId}`,
  );
  const payouts = groupBy(events, 'WithdrawalRequested', (e) => String(e.data.withdrawalId));
  for (const c of contracts.values()) {
    const name = `contract ${c.contractId}`;
    const run = runIdOf(c.contractId);
    if (c.settled.length > 1) fail(`${name} COMPLETED ${c.settled.length} times`);
    if ((settledHolds.get(run)?.length ?? 0) > 1)
      fail(`${name}: its hold settled ${settledHolds.get(run)!.length} times`);
    if ((payouts.get(run)?.length ?? 0) > 1) fail(`${name}: ${payouts.get(run)!.length} payouts`);
    if (c.afterEnd.length) fail(`${name}: ${c.afterEnd.join(', ')} after it ended`);
    if (c.accepted > 1) fail(`${name}: accepted ${c.accepted} times`);
    if (c.unaccepted.length)
      fail(`${name}: ${c.unaccepted.join(', ')} without the grower's acceptance`);
  }
  for (const [key, list] of payments)
    if (key.startsWith('run-') && list.length > 1)
      fail(`settlement ${key} paid ${list.length} times`);
  return contracts.size;
}

/** A cooperative's 'Confirmer' as the workload sent it (a `confirm-contract` command). */
export interface CodeEntry {
  contractId: string;
  /** The code entered: read from the grower's SMS, or a wrong one on purpose. */
  code: string;
  wrong: boolean;
  /** When it was first sent (ms since the epoch, the API processes' clock). */
  sentAt: number;
  outcome: 'ack' | 'refused' | 'unack';
}

/**
 * (e) Consent by code: a contract is accepted once, with the code it was last sent, never
 * after its code locked, and never by a wrong code.
 *
 * - Each DeliveryContractAccepted is CODE, names the contract's current code (the last
 *   AcceptanceCodeIssued before it) and carries its hash; no code is issued, accepted or
 *   rejected after the acceptance; DeliveryContractConfirmed and DeliveryContractAccepted come
 *   in pairs.
 * - Wrong codes are counted per code, 1, 2, … and never beyond `maxWrong`; a code with
 *   `maxWrong` rejections is never accepted.
 * - What the cooperatives entered: a right code (read from the grower's SMS) hashes, with the
 *   accepted code's salt, to the accepted hash when it was acknowledged; a wrong code is
 *   acknowledged only on a contract already accepted before it was sent (a confirmed
 *   contract answers its state), and never hashes to the accepted hash.
 *
 * Returns how many contracts it checked.
 */
export async function checkConsentByCode(
  events: LoggedEvent[],
  entries: CodeEntry[],
  fail: Fail,
  rules: { maxWrong: number; hash: (code: string, salt: string) => Promise<string> },
): Promise<number> {
  interface Code {
    codeId: string;
    salt: string;
    codeHash: string;
    rejected: number;
  }
  interface Consent {
    codes: Map<string, Code>;
    current: Code | null;
    accepted: Record<string, any> | null;
    confirmed: number;
  }
  const consents = new Map<string, Consent>();
  for (const e of events) {
    if (!e.stream_id.startsWith('contract-')) continue;
    const id = String(e.data.contractId);
    if (e.type === 'DeliveryContractCreated')
      consents.set(id, { codes: new Map(), current: null, accepted: null, confirmed: 0 });
    const c = consents.get(id);
    if (!c) continue;
    const name = `contract ${id}`;
    if (e.type === 'AcceptanceCodeIssued') {
      if (c.accepted) fail(`${name}: a code issued after its acceptance`);
      c.current = {
        codeId: e.data.codeId,
        salt: e.data.salt,
        codeHash: e.data.codeHash,
        rejected: 0,
      };
      c.codes.set(e.data.codeId, c.current);
    }
    if (e.type === 'AcceptanceCodeRejected') {
      const code = c.codes.get(e.data.codeId);
      if (c.accepted) fail(`${name}: a wrong code recorded after its acceptance`);
      if (!code || code !== c.current) {
        fail(`${name}: a wrong code recorded against a code that is not its current one`);
        continue;
      }
      code.rejected++;
      if (e.data.wrongAttempts !== code.rejected)
        fail(`${name}: wrong code counted ${e.data.wrongAttempts}, the ${code.rejected}th`);
      if (code.rejected > rules.maxWrong)
        fail(`${name}: ${code.rejected} wrong codes recorded, the limit is ${rules.maxWrong}`);
    }
    if (e.type === 'DeliveryContractConfirmed') c.confirmed++;
    if (e.type === 'DeliveryContractAccepted') {
      if (c.accepted) continue; // counted by (d)
      c.accepted = e.data;
      if (e.data.method !== 'CODE') fail(`${name}: accepted by ${e.data.method}, not by code`);
      else if (!c.current || e.data.codeId !== c.current.codeId)
        fail(`${name}: accepted with a code that is not its current one`);
      else if (e.data.codeHash !== c.current.codeHash)
        fail(`${name}: accepted with a hash that is not its code's`);
      else if (c.current.rejected >= rules.maxWrong)
        fail(`${name}: accepted after its code locked (${c.current.rejected} wrong codes)`);
    }
  }
  for (const [id, c] of consents)
    if (c.confirmed !== (c.accepted ? 1 : 0))
      fail(`contract ${id}: confirmed ${c.confirmed} times, accepted ${c.accepted ? 1 : 0}`);

  for (const entry of entries) {
    const c = consents.get(entry.contractId);
    const name = `contract ${entry.contractId}`;
    if (!c) {
      if (entry.outcome === 'ack')
        fail(`${name}: a code acknowledged for a contract not in the log`);
      continue;
    }
    const accepted = c.accepted;
    const code = accepted ? c.codes.get(String(accepted.codeId)) : undefined;
    if (entry.wrong) {
      if (entry.outcome === 'ack' && !(accepted && Date.parse(accepted.acceptedAt) < entry.sentAt))
        fail(`${name}: the wrong code ${entry.code} acknowledged before any acceptance`);
      if (code && (await rules.hash(entry.code, code.salt)) === accepted!.codeHash)
        fail(`${name}: the wrong code ${entry.code} is the accepted one`);
    } else if (entry.outcome === 'ack') {
      if (!accepted || !code) fail(`${name}: its code acknowledged, no acceptance in the log`);
      else if ((await rules.hash(entry.code, code.salt)) !== accepted.codeHash)
        fail(`${name}: the code of the grower's SMS is not the code accepted`);
    }
  }
  return consents.size;
}

/** A grower's `OUI <code>` as the workload delivered it (a `reply-contract` command). */
export interface ReplyEntry {
  contractId: string;
  growerUserId: string;
  /** The phone it was sent from (the grower's registered one). */
  phone: string;
  /** Twilio's MessageSid: the same for each delivery of one message. */
  sid: string;
  /** The code sent: read from the grower's offer SMS, or a wrong one on purpose. */
  code: string;
  wrong: boolean;
  /** When its 2xx came back (ms since the epoch), for an acknowledged delivery. */
  answeredAt?: number;
  outcome: 'ack' | 'refused' | 'unack';
}

/** The idempotency key the API records a message's effect under (one per MessageSid). */
export const replyKey = (growerUserId: string, sid: string) =>
  `${growerUserId}:contracts.accept-by-reply:${sid}`;

/**
 * (f) Consent by the grower's SMS reply, delivered as Twilio does (signed, sometimes twice at
 * once with one MessageSid) under the faults. Replies go only to contracts no cooperative
 * confirms and no one gives a new code, with fewer wrong replies per grower than the limit:
 *
 * - each acceptance by the grower (acceptedBy his user) is CODE, for the phone he replied
 *   from, with its DeliveryContractConfirmed in the same command, made by one of his right
 *   replies for that contract (its key) whose code hashes to the accepted hash;
 * - every effect of a reply (an acceptance or a wrong attempt entered by the grower) carries
 *   the key of a message he sent; one message (one MessageSid, however many deliveries)
 *   accepts at most once and spends at most one attempt per contract, never both; a wrong
 *   reply never accepts; on each contract the grower's wrong attempts are at most his
 *   messages;
 * - a right reply acknowledged (2xx) leaves its contract accepted — never zero — unless, before
 *   its answer, the contract was canceled, its code replaced or locked (MAX_WRONG_CODES);
 *   never twice is (d).
 *
 * Wrong attempts never beyond the limit, whoever entered them, is (e). Returns how many
 * messages it checked.
 */
export async function checkConsentByReply(
  events: (LoggedEvent & { metadata?: Record<string, any> })[],
  replies: ReplyEntry[],
  fail: Fail,
  rules: { maxWrong: number; hash: (code: string, salt: string) => Promise<string> },
): Promise<number> {
  interface Code {
    codeId: string;
    salt: string;
    codeHash: string;
    issuedAt: number;
    /** When each wrong attempt on it was recorded. */
    rejectedAt: number[];
  }
  interface Facts {
    growerUserId: string;
    codes: Code[];
    accepted: (Record<string, any> & { commandId?: string }) | null;
    /** Confirmations by command key. */
    confirmedBy: Map<string, number>;
    canceledAt: number | null;
    /** The grower's wrong attempts, by command key ('' for none). */
    growerRejections: string[];
  }
  const messages = new Map<string, ReplyEntry[]>();
  for (const r of replies) {
    const key = replyKey(r.growerUserId, r.sid);
    messages.set(key, [...(messages.get(key) ?? []), r]);
  }
  const contracts = new Map<string, Facts>();
  const byKey = new Map<string, { stream: string; type: string }[]>();
  for (const e of events) {
    if (!e.stream_id.startsWith('contract-')) continue;
    const id = String(e.data.contractId);
    const commandId = typeof e.metadata?.commandId === 'string' ? e.metadata.commandId : '';
    if (commandId.includes(':contracts.accept-by-reply:'))
      byKey.set(commandId, [...(byKey.get(commandId) ?? []), { stream: id, type: e.type }]);
    if (e.type === 'DeliveryContractCreated') {
      contracts.set(id, {
        growerUserId: e.data.growerUserId,
        codes: [],
        accepted: null,
        confirmedBy: new Map(),
        canceledAt: null,
        growerRejections: [],
      });
      continue;
    }
    const c = contracts.get(id);
    if (!c) continue;
    if (e.type === 'AcceptanceCodeIssued')
      c.codes.push({
        codeId: e.data.codeId,
        salt: e.data.salt,
        codeHash: e.data.codeHash,
        issuedAt: Date.parse(e.data.issuedAt),
        rejectedAt: [],
      });
    if (e.type === 'AcceptanceCodeRejected') {
      c.codes.find((x) => x.codeId === e.data.codeId)?.rejectedAt.push(Date.parse(e.data.at));
      if (e.data.enteredBy === c.growerUserId) c.growerRejections.push(commandId);
    }
    if (e.type === 'DeliveryContractConfirmed')
      c.confirmedBy.set(commandId, (c.confirmedBy.get(commandId) ?? 0) + 1);
    if (e.type === 'DeliveryContractAccepted' && !c.accepted) c.accepted = { ...e.data, commandId };
    if (e.type === 'DeliveryContractCanceled') c.canceledAt = Date.parse(e.data.at);
  }

  // Acceptances by the grower: made by one of his right replies, as it was sent.
  for (const [id, c] of contracts) {
    const a = c.accepted;
    if (!a || a.acceptedBy !== c.growerUserId) continue;
    const name = `contract ${id}`;
    const sent = messages.get(a.commandId ?? '') ?? [];
    const message = sent[0];
    if (!message || message.contractId !== id) {
      fail(`${name}: accepted by its grower without a reply of his for it (key ${a.commandId})`);
      continue;
    }
    if (a.method !== 'CODE') fail(`${name}: accepted by reply as ${a.method}, not by code`);
    if (a.phone !== message.phone)
      fail(`${name}: accepted by reply for ${a.phone}, the reply came from ${message.phone}`);
    if (message.wrong) fail(`${name}: accepted by the wrong code ${message.code}`);
    const code = c.codes.find((x) => x.codeId === a.codeId);
    if (!code || (await rules.hash(message.code, code.salt)) !== a.codeHash)
      fail(`${name}: accepted by reply with a hash that is not the replied code's`);
    if (!c.confirmedBy.get(a.commandId ?? ''))
      fail(`${name}: accepted by reply without its DeliveryContractConfirmed`);
  }

  // Each effect of a reply under the key of a message the grower sent; at most one per message.
  for (const [id, c] of contracts) {
    const name = `contract ${id}`;
    const unkeyed = c.growerRejections.filter((k) => !messages.has(k)).length;
    if (unkeyed) fail(`${name}: ${unkeyed} wrong attempts of its grower under no message's key`);
    const sids = new Set(
      replies.filter((r) => r.growerUserId === c.growerUserId).map((r) => r.sid),
    );
    if (c.growerRejections.length > sids.size)
      fail(
        `${name}: ${c.growerRejections.length} wrong attempts of its grower, he sent ${sids.size} messages`,
      );
  }
  for (const [key, effects] of byKey) {
    const sent = messages.get(key);
    if (!sent) {
      fail(`message ${key}: effects under the key of a message never sent`);
      continue;
    }
    const accepted = effects.filter((x) => x.type === 'DeliveryContractAccepted');
    const rejected = effects.filter((x) => x.type === 'AcceptanceCodeRejected');
    const sid = sent[0]!.sid;
    if (accepted.length > 1) fail(`message ${sid}: accepted ${accepted.length} times`);
    if (accepted.length && rejected.length)
      fail(`message ${sid}: accepted a contract and spent ${rejected.length} attempts`);
    if (accepted.length && sent[0]!.wrong) fail(`message ${sid}: the wrong code accepted`);
    const perContract = new Map<string, number>();
    for (const r of rejected) perContract.set(r.stream, (perContract.get(r.stream) ?? 0) + 1);
    for (const [contractId, n] of perContract)
      if (n > 1) fail(`message ${sid}: ${n} attempts spent on contract ${contractId}`);
  }

  // A right reply acknowledged: its contract accepted, unless the log explains why not.
  for (const sent of messages.values()) {
    const message = sent[0]!;
    if (message.wrong) continue;
    const acked = sent.filter((r) => r.outcome === 'ack' && r.answeredAt !== undefined);
    if (!acked.length) continue;
    const answeredAt = Math.min(...acked.map((r) => r.answeredAt!));
    const name = `contract ${message.contractId}`;
    const c = contracts.get(message.contractId);
    if (!c) {
      fail(`${name}: a reply acknowledged for a contract not in the log`);
      continue;
    }
    if (c.accepted) continue;
    let code: Code | undefined;
    for (const x of c.codes) if ((await rules.hash(message.code, x.salt)) === x.codeHash) code = x;
    if (!code) {
      fail(`${name}: the code of the grower's SMS (${message.sid}) is none of its codes`);
      continue;
    }
    const later = c.codes.slice(c.codes.indexOf(code) + 1);
    const excused =
      (c.canceledAt !== null && c.canceledAt < answeredAt) ||
      later.some((x) => x.issuedAt < answeredAt) ||
      (code.rejectedAt.length >= rules.maxWrong &&
        code.rejectedAt[rules.maxWrong - 1]! < answeredAt);
    if (!excused)
      fail(`${name}: the right reply ${message.sid} acknowledged, the contract never accepted`);
  }
  return messages.size;
}

/** A replayed offline weighing as the checker reads it (workload.ts 'offline-weigh'). */
export interface OfflineWeighing {
  key?: string;
  /** The aggregator it was sent as: its key is scoped `<userId>:contracts.weigh:<key>`. */
  userId: string;
  outcome: 'ack' | 'refused' | 'unack';
  status?: number;
  body?: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/**
 * The offline client's weighings, replayed after the faults: each queued weighing takes effect
 * at most once (at most one settlement appended under its key, on its contract), every
 * acknowledged one exactly once (settled under its key, or — answered `alreadySettled`, the same
 * weighing recorded another way — its contract settled once and nothing under its key; each
 * acknowledgement of its key the same answer: one payout, one net), and none is left without an
 * answer once the network is back (nothing lost).
 * Returns how many queued weighings it checked.
 */
export function checkOfflineWeighings(
  events: (LoggedEvent & { metadata?: Record<string, any> })[],
  replays: OfflineWeighing[],
  fail: Fail,
): number {
  const settledBy = new Map<string, LoggedEvent[]>();
  const settlements = new Map<string, number>();
  for (const e of events) {
    if (e.type !== 'DeliveryContractSettled') continue;
    settlements.set(e.stream_id, (settlements.get(e.stream_id) ?? 0) + 1);
    const id = e.metadata?.commandId;
    if (typeof id === 'string') settledBy.set(id, [...(settledBy.get(id) ?? []), e]);
  }
  const byKey = new Map<string, OfflineWeighing[]>();
  for (const r of replays) {
    const scoped = `${r.userId}:contracts.weigh:${r.key ?? ''}`;
    byKey.set(scoped, [...(byKey.get(scoped) ?? []), r]);
  }
  for (const [scoped, list] of byKey) {
    const key = list[0]!.key;
    const contractId = String(list[0]!.meta.contractId);
    const settled = settledBy.get(scoped) ?? [];
    if (settled.length > 1) fail(`offline weighing ${key}: settled ${settled.length} times`);
    for (const e of settled) {
      if (e.stream_id !== `contract-${contractId}`)
        fail(`offline weighing ${key}: settled ${e.stream_id}, not contract-${contractId}`);
    }
    const acks = list.filter((r) => r.outcome === 'ack');
    // The same weighing (kilograms and day) on a contract another way already completed is
    // acknowledged as `alreadySettled` and writes nothing: its contract was settled once.
    const already = acks.length > 0 && acks.every((r) => r.body?.alreadySettled === true);
    const onContract = settlements.get(`contract-${contractId}`) ?? 0;
    if (already && (settled.length !== 0 || onContract !== 1)) {
      fail(
        `offline weighing ${key}: acknowledged as already settled, its contract settled ${onContract} times (${settled.length} under its key)`,
      );
    } else if (acks.length > 0 && !already && settled.length !== 1) {
      fail(
        `offline weighing ${key}: acknowledged ${acks.length} times, settled ${settled.length} times`,
      );
    }
    const answers = new Set(
      acks.map((r) => `${String(r.body?.payoutId)}|${String(r.body?.growerNet)}`),
    );
    if (answers.size > 1) {
      fail(
        `offline weighing ${key}: ${answers.size} different acknowledgements of one key (${[...answers].join(', ')})`,
      );
    }
    if (list.every((r) => r.outcome === 'unack')) {
      fail(`offline weighing ${key}: no answer after the faults, the weighing is lost`);
    }
  }
  return byKey.size;
}
