import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_WRONG_CODES } from '@filiere/api/contracts';
import { TWILIO_INBOUND_PATH, type TwilioStandIn } from '@filiere/api/messaging/bench';
import { ClientPlan, type Delivery, type PlannedOp } from './plan.js';
import type { Population, TortureUser } from './population.js';
import { Prng } from './prng.js';
import type { ProviderStub } from './provider-stub.js';

export type CommandName =
  | 'supply'
  | 'verify'
  | 'validate-supply'
  | 'transfer'
  | 'withdrawal'
  | 'file-request'
  | 'accept-requests'
  | 'find-code'
  | 'deliver'
  | 'create-contract'
  | 'confirm-contract'
  | 'reply-contract'
  | 'resend-code'
  | 'record-delivery'
  | 'run-contracts'
  | 'weigh-and-pay'
  | 'cancel-contract'
  | 'offline-deliver'
  | 'offline-weigh';

/** The code of the newest offer SMS naming `reference` ('… contrat LIV-… Pour accepter, donnez le code 123456'). */
export function codeInSms(texts: string[], reference: string): string | null {
  for (const text of texts) {
    if (!text.includes(`contrat ${reference},`)) continue;
    const found = /donnez le code (\d{6})\b/.exec(text);
    if (found) return found[1]!;
  }
  return null;
}

/** A delivery contract the workload created, and how far it knows it went. */
interface Contract {
  id: string;
  /** Its number (LIV-…), which the grower's SMS names. */
  reference: string;
  aggregatorId: string;
  growerUserId: string;
  kg: number;
  /** What the clients learnt (an unacknowledged step leaves it where it was). */
  stage: 'created' | 'confirmed' | 'delivered' | 'run' | 'canceled';
  /**
   * Every other contract is accepted by the grower's SMS reply (`OUI <code>`), never at
   * 'Confirmer' and never given a new code: its offer's code stays current and unlocked, so a
   * right reply acknowledged must accept it (contracts-checker.ts, checkConsentByReply).
   */
  byReply: boolean;
  /**
   * The code of its offer, once its grower read the SMS with the contract listed: his phone
   * keeps it, so he may reply while PostgreSQL is down.
   */
  offerCode?: string;
}

/**
 * Wrong replies a grower sends at most: each spends an attempt on every contract of his waiting
 * for his consent, so fewer than the limit keeps the codes of his reply contracts unlocked.
 */
const WRONG_REPLIES_PER_GROWER = MAX_WRONG_CODES - 2;

/** An INPUT request accepted with its delivery code, as the workload learnt it. */
interface Code {
  requestId: number;
  code: string;
  aggregatorId: string;
  /** Some confirmation was acknowledged or answered 409 (already delivered). */
  delivered: boolean;
}

/** One attempt of a request: an HTTP status, or why there was none. */
export type Attempt = ({ status: number } | { error: 'timeout' | 'connection' }) & {
  /** When it was sent, in ms since the load started. */
  atMs: number;
};

/**
 * One command as a client sent it (its retries included): acknowledged (2xx), refused
 * (4xx) or unacknowledged (no answer, or 5xx: the outcome is unknown).
 */
export interface CommandRecord {
  client: number;
  seq: number;
  command: CommandName;
  userId: string;
  /** The Idempotency-Key sent (verification takes none). */
  key?: string;
  attempts: Attempt[];
  outcome: 'ack' | 'refused' | 'unack';
  status?: number;
  body?: Record<string, unknown>;
  /** What the checker needs to know of the intent. */
  meta: Record<string, unknown>;
}

export interface BalanceObservation {
  client: number;
  walletId: string;
  balance: number;
  availableBalance: number;
}

export interface WorkloadResult {
  commands: CommandRecord[];
  observations: BalanceObservation[];
  reads: { tried: number; failed: number };
  failedReads: Attempt[];
  plannedOps: number;
  /** Supplies paid in the widget whose page was lost before any verify ('lose-payer-page'). */
  pagesLost: { reference: string; amount: number; approved: boolean }[];
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const NORMAL_TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 25;

/**
 * Many concurrent clients over real HTTP: one per member of the population, each running
 * its seeded plan against a randomly chosen API process until `shouldStop()`. Connection
 * errors and timeouts are recorded, never thrown: a client survives any fault.
 */
export class Workload {
  readonly commands: CommandRecord[] = [];
  readonly observations: BalanceObservation[] = [];
  readonly reads = { tried: 0, failed: 0 };
  /** Failed balance reads, as attempts (status or error, and when). */
  readonly failedReads: Attempt[] = [];
  private startedAt = Date.now();
  private plannedOps = 0;
  private keyCounter = 0;
  private readonly pagesLost: WorkloadResult['pagesLost'] = [];
  /** Filed requests not yet known accepted or refused, per season aggregator (oldest first). */
  private readonly pending = new Map<string, number[]>();
  /** Accepted INPUT requests' codes, in acceptance order. */
  private readonly codes: Code[] = [];
  /** Delivery contracts created (acknowledged), in creation order. */
  private readonly contracts: Contract[] = [];
  /** Wrong replies sent per grower (WRONG_REPLIES_PER_GROWER). */
  private readonly wrongReplies = new Map<string, number>();
  /**
   * The offline client's queue: deliveries by code recorded while the faults run, each with the
   * idempotency key made when it was recorded, sent only by `replayOffline` after them.
   */
  readonly offlineQueue: { requestId: number; code: string; key: string }[] = [];
  /**
   * Its weighings at the scale, recorded the same way: confirmed contracts weighed without
   * network, sent by `replayOffline` as their aggregator (the scale is the aggregator's account).
   */
  readonly offlineWeighings: {
    contractId: string;
    aggregatorId: string;
    kg: number;
    weighedOn: string;
    key: string;
  }[] = [];

  constructor(
    private readonly options: {
      seed: number;
      population: Population;
      apiUrls: string[];
      stub: ProviderStub;
      /** Stops when it answers true (checked between operations). */
      shouldStop: () => boolean;
      /** True while payers' pages get lost right after paying (the 'lose-payer-page' fault). */
      pagesLost?: () => boolean;
      /** Pause between two operations of a client, to spread the load. */
      thinkMs?: number;
      /**
       * The SMS texts a phone received, newest first: what the grower reads on his phone (the
       * `sms_outbox` the gateway sends from), never the event store.
       */
      inbox: (phone: string) => Promise<string[]>;
      /** The contract's status in the read table (null: not there yet). */
      contractStatus: (contractId: string) => Promise<string | null>;
      /** The stand-in of Twilio the growers' replies come through, signed as Twilio signs. */
      twilio: TwilioStandIn;
    },
  ) {}

  async run(): Promise<WorkloadResult> {
    const { population } = this.options;
    this.startedAt = Date.now();
    await Promise.all([
      ...[...population.members, ...population.providers, population.sfd].map((user) =>
        this.client(user),
      ),
      this.offlineClient(),
    ]);
    return {
      commands: this.commands,
      observations: this.observations,
      reads: this.reads,
      failedReads: this.failedReads,
      plannedOps: this.plannedOps,
      pagesLost: this.pagesLost,
    };
  }

  /**
   * A depot and a buying centre without network: during the load the offline client records
   * deliveries of codes it knows (not known delivered, not queued yet) and weighings of
   * contracts known confirmed (not queued yet) into its queues, sending nothing; the other
   * clients may deliver, weigh, run or cancel the same meanwhile (the server then refuses the
   * replay). Its deliveries are its own provider's (`offlineProvider`), never an online client.
   */
  private async offlineClient(): Promise<void> {
    const provider = this.options.population.offlineProvider;
    const routing = new Prng(Prng.derive(this.options.seed ^ 0x0ff1, 7));
    while (!this.options.shouldStop()) {
      const queued = new Set(this.offlineQueue.map((q) => q.requestId));
      const open = this.codes.filter((c) => !c.delivered && !queued.has(c.requestId));
      if (open.length > 0 && this.offlineQueue.length < 40) {
        const target = open[routing.int(0, open.length - 1)]!;
        this.offlineQueue.push({
          requestId: target.requestId,
          code: target.code,
          key: `offline-${provider.index}-${target.requestId}-${++this.keyCounter}`,
        });
      }
      const weighed = new Set(this.offlineWeighings.map((w) => w.contractId));
      const ready = this.contracts.filter((c) => c.stage === 'confirmed' && !weighed.has(c.id));
      if (ready.length > 0 && this.offlineWeighings.length < 20 && routing.int(0, 2) === 0) {
        const target = ready[routing.int(0, ready.length - 1)]!;
        this.offlineWeighings.push({
          contractId: target.id,
          aggregatorId: target.aggregatorId,
          kg: Math.max(1, Math.round((target.kg * routing.int(50, 120)) / 100)),
          // The day it was weighed, fixed with its key (Benin's day).
          weighedOn: new Date(Date.now() + 3_600_000).toISOString().slice(0, 10),
          key: `offline-weigh-${target.id}-${++this.keyCounter}`,
        });
      }
      await sleep(100 + routing.int(0, 200));
    }
  }

  /**
   * After the load, once the read tables caught up: each grower answers the offers of his
   * reply contracts still waiting, as he would on a quiet day (right code, one delivery retried
   * on no answer). The faults' projection lag can keep every offer unlisted for the whole load
   * on a loaded machine; this keeps the reply path in every run. Recorded as 'reply-contract'.
   */
  async replyWaiting(): Promise<number> {
    const { members } = this.options.population;
    const routing = new Prng(Prng.derive(this.options.seed ^ 0x0e91, 7));
    const delivery = { retry: true, shortTimeout: false };
    let sent = 0;
    for (const [i, target] of this.contracts.entries()) {
      if (!target.byReply || target.stage !== 'created') continue;
      const grower = members.find((m) => m.id === target.growerUserId);
      if (!grower) continue;
      const before = this.commands.length;
      await this.replyContract(
        { user: grower, seq: 3_000_000 + i, routing, delivery },
        // pick 2: a right code, delivered once.
        { kind: 'confirm-contract', pick: 2, again: false, ...delivery },
        target,
      );
      sent += this.commands.length - before;
    }
    return sent;
  }

  /**
   * The offline client's network is back (after the faults): it sends its queues in order, each
   * item with its key and retried on no answer, then sends them all again (a resend after a
   * lost answer, a second tab). Every record is in `commands` as 'offline-deliver' or
   * 'offline-weigh'.
   */
  async replayOffline(): Promise<CommandRecord[]> {
    const { offlineProvider: provider, members } = this.options.population;
    const routing = new Prng(Prng.derive(this.options.seed ^ 0x0ff2, 7));
    const records: CommandRecord[] = [];
    const delivery = { retry: true, shortTimeout: false };
    for (const pass of [1, 2]) {
      for (const [i, item] of this.offlineQueue.entries()) {
        records.push(
          await this.command(
            { user: provider, seq: 1_000_000 + pass * 10_000 + i, routing, delivery },
            'offline-deliver',
            'POST',
            `/api/input-provider/make-delivery/${item.requestId}`,
            {
              body: { code: item.code },
              key: item.key,
              meta: { requestId: item.requestId, pass },
            },
          ),
        );
      }
      for (const [i, item] of this.offlineWeighings.entries()) {
        const aggregator = members.find((m) => m.id === item.aggregatorId)!;
        records.push(
          await this.command(
            { user: aggregator, seq: 2_000_000 + pass * 10_000 + i, routing, delivery },
            'offline-weigh',
            'POST',
            '/api/contracts/collection/weighings',
            {
              body: {
                contractId: item.contractId,
                kilograms: item.kg,
                grade: 'B',
                weighedOn: item.weighedOn,
              },
              key: item.key,
              meta: { contractId: item.contractId, kg: item.kg, pass },
            },
          ),
        );
      }
    }
    return records;
  }

  private async client(user: TortureUser): Promise<void> {
    const plan = new ClientPlan(this.options.seed, user.index, user.role);
    // API choice and back-off jitter have their own stream, apart from the plan.
    const routing = new Prng(Prng.derive(this.options.seed ^ 0x5bd1e995, user.index));
    let seq = 0;
    while (!this.options.shouldStop()) {
      const op = plan.next();
      this.plannedOps++;
      await this.perform(user, op, seq++, routing);
      if (this.options.thinkMs) await sleep(routing.int(0, this.options.thinkMs));
    }
  }

  private async perform(user: TortureUser, op: PlannedOp, seq: number, routing: Prng) {
    const { population, stub } = this.options;
    const base = { user, seq, routing, delivery: op as Delivery };
    switch (op.kind) {
      case 'stats':
        return this.readStats(user, routing);
      case 'supply-widget': {
        const created = await this.command(base, 'supply', 'POST', '/api/supply', {
          body: { amount: op.amount, walletId: user.walletId, accountType: op.method },
          meta: { amount: op.amount, method: op.method },
        });
        const reference = created.outcome === 'ack' ? String(created.body?.reference) : null;
        if (!reference) return;
        const transactionId = stub.pay(reference, op.amount, op.approved);
        if (this.options.pagesLost?.()) {
          // Paid (or refused) in the widget, then the page is gone: nothing reports it.
          this.pagesLost.push({ reference, amount: op.amount, approved: op.approved });
          return;
        }
        for (let i = 0; i < op.verifications; i++) {
          await this.command(
            { ...base, delivery: { retry: op.retry, shortTimeout: false } },
            'verify',
            'GET',
            `/api/supply/verify/${transactionId}?reference=${reference}`,
            { meta: { reference, transactionId, approved: op.approved, amount: op.amount } },
          );
        }
        return;
      }
      case 'supply-bank': {
        const created = await this.command(base, 'supply', 'POST', '/api/supply', {
          body: { amount: op.amount, walletId: user.walletId, accountType: 'BANK', bank: 'BAB' },
          meta: { amount: op.amount, method: 'BANK' },
        });
        const reference = created.outcome === 'ack' ? String(created.body?.reference) : null;
        if (!reference) return;
        const admin = { ...base, user: population.superAdmin };
        for (let i = 0; i < op.validations; i++) {
          await (op.byPath
            ? this.command(
                admin,
                'validate-supply',
                'GET',
                `/api/supply/validate-bank-supply/${reference}`,
                {
                  meta: { reference },
                },
              )
            : this.command(admin, 'validate-supply', 'POST', '/api/supply/validate-bank-supply', {
                body: { reference, supplyReference: reference },
                meta: { reference },
              }));
        }
        return;
      }
      case 'transfer': {
        const candidates = population.members.filter(
          (m) =>
            m.id !== user.id &&
            (op.scope === 'foreign' ? m.cluster !== user.cluster : m.cluster === user.cluster),
        );
        const recipient = candidates[op.pick % candidates.length]!;
        await this.command(base, 'transfer', 'POST', '/api/wallet/make-transfer', {
          body: {
            source: user.walletId,
            destination: recipient.walletId,
            amount: op.amount,
            reason: `Torture ${user.index}/${seq}`,
          },
          meta: { amount: op.amount, to: recipient.walletId, scope: op.scope },
        });
        return;
      }
      case 'withdrawal':
        await this.command(base, 'withdrawal', 'POST', `/api/wallet/make-debit/${user.id}`, {
          body: { paiementMethod: op.method, amount: op.amount },
          meta: { amount: op.amount, method: op.method, walletId: user.walletId },
        });
        return;
      case 'file-request': {
        const season = population.season;
        if (!season || !user.growerId) return this.readStats(user, routing);
        const filed = await this.command(base, 'file-request', 'POST', '/api/season-requests', {
          body: {
            type: op.requestType,
            seasonId: season.seasonId,
            growerId: user.growerId,
            quantity: op.quantity,
            ...(op.requestType === 'INPUT' ? { fertilizerId: 1 } : { amount: op.amount }),
            ...(op.requestType === 'SOCIAL' ? { sfdUserId: population.sfd.id } : {}),
          },
          meta: { type: op.requestType, quantity: op.quantity },
        });
        // INPUT and PINEAPLE go to the cluster's season aggregator, SOCIAL to the SFD.
        const handler = filed.body?.industrialUserId ?? filed.body?.sfdUserId;
        if (filed.outcome === 'ack' && typeof handler === 'string') {
          const list = this.pending.get(handler) ?? [];
          list.push(Number(filed.body?.requestId));
          this.pending.set(handler, list);
        }
        return;
      }
      case 'accept-requests': {
        const queue = this.pending.get(user.id);
        if (!queue?.length) return this.readStats(user, routing);
        const ids = queue.splice(0, op.count);
        const accepted = await this.command(
          base,
          'accept-requests',
          'POST',
          '/api/user-cluster-grower/accept-requests',
          { body: { ids }, meta: { ids } },
        );
        if (accepted.outcome === 'unack') {
          // Unknown: sent again later (an accepted one answers per id, never pays twice).
          queue.push(...ids);
          return;
        }
        const results = (accepted.body?.results ?? []) as {
          id: number;
          ok: boolean;
          request?: { code?: string | null };
        }[];
        for (const r of results) {
          if (r.ok && r.request?.code) {
            this.codes.push({
              requestId: r.id,
              code: r.request.code,
              aggregatorId: user.id,
              delivered: false,
            });
          }
        }
        return;
      }
      case 'deliver':
        return this.deliver(base, op);
      case 'contract':
        return this.contract(base, op);
      case 'confirm-contract':
        return this.confirmContract(base, op);
    }
  }

  /**
   * A grower gives his cooperative the code his SMS holds for one of his contracts, and the
   * cooperative enters it ('Confirmer'): sometimes after a wrong code (a misread digit), now and
   * then after more wrong codes than the limit (the code locks; the right one is refused and
   * the cooperative asks for a new code). No SMS for the contract (the API died between the
   * contract's append and its SMS): the cooperative asks for a new code.
   */
  private async confirmContract(
    base: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    op: Extract<PlannedOp, { kind: 'confirm-contract' }>,
  ) {
    const { user, routing } = base;
    const mine = this.contracts.filter((c) => c.growerUserId === user.id);
    const open = mine.filter((c) => c.stage === 'created');
    const from = op.again || open.length === 0 ? mine : open;
    const cooperative =
      user.cluster === null ? undefined : this.options.population.cooperatives[user.cluster];
    if (!from.length || !cooperative) return this.readStats(user, routing);
    const target = from[op.pick % from.length]!;
    if (target.byReply) return this.replyContract(base, op, target);
    const at = { ...base, user: cooperative };
    const url = `/api/contracts/delivery-contract/${target.id}`;
    // The outbox unreachable (PostgreSQL restarting): the grower's SMS waits for a later visit.
    const texts = await this.options.inbox(user.phone).catch(() => null);
    if (!texts) return;
    const code = codeInSms(texts, target.reference);
    const resend = () =>
      this.command(at, 'resend-code', 'POST', `${url}/acceptance-code`, {
        meta: { contractId: target.id },
      });
    if (!code) {
      await resend();
      return;
    }
    const wrongs = op.pick % 11 === 0 ? MAX_WRONG_CODES + 1 : op.pick % 3 === 0 ? 1 : 0;
    for (let i = 0; i < wrongs; i++) {
      // Never the right code: 1 to 999,999 added to it, modulo 10⁶.
      const wrong = String((Number(code) + 1 + ((op.pick + i) % 999_999)) % 1_000_000).padStart(
        6,
        '0',
      );
      await this.command(at, 'confirm-contract', 'PATCH', `${url}/confirm`, {
        body: { code: wrong },
        meta: { contractId: target.id, code: wrong, wrong: true, sentAt: Date.now() },
      });
    }
    const confirmed = await this.command(at, 'confirm-contract', 'PATCH', `${url}/confirm`, {
      body: { code },
      meta: { contractId: target.id, code, wrong: false, sentAt: Date.now() },
    });
    if (confirmed.outcome === 'ack' && target.stage === 'created') target.stage = 'confirmed';
    if (confirmed.body?.reason === 'ACCEPTANCE_CODE_LOCKED') await resend();
  }

  /**
   * The grower answers the offer SMS of a reply contract himself: `OUI <code>` with the code
   * his SMS holds, posted as Twilio posts it (signed, one MessageSid kept across retries) to a
   * random API. A third of the visits send a wrong code instead (at most
   * WRONG_REPLIES_PER_GROWER per grower); a quarter deliver the message twice at the same
   * moment with the same MessageSid, as Twilio's retries may. Sent only once the contract is
   * in the read table (the grower cannot answer an offer before it is listed); the code read
   * once is kept (his phone keeps the SMS), so replies also go out while PostgreSQL is down.
   */
  private async replyContract(
    base: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    op: Extract<PlannedOp, { kind: 'confirm-contract' }>,
    target: Contract,
  ) {
    const { user, routing } = base;
    if (!target.offerCode) {
      const status = await this.options.contractStatus(target.id).catch(() => null);
      const texts = status ? await this.options.inbox(user.phone).catch(() => null) : null;
      const read = texts ? codeInSms(texts, target.reference) : null;
      if (read) target.offerCode = read;
    }
    const code = target.offerCode;
    if (!code) return this.readStats(user, routing);
    const wrongs = this.wrongReplies.get(user.id) ?? 0;
    const wrong = op.pick % 3 === 0 && wrongs < WRONG_REPLIES_PER_GROWER;
    if (wrong) this.wrongReplies.set(user.id, wrongs + 1);
    const sent = wrong
      ? String((Number(code) + 1 + (op.pick % 999_999)) % 1_000_000).padStart(6, '0')
      : code;
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const meta = {
      contractId: target.id,
      growerUserId: user.id,
      phone: user.phone,
      sid,
      code: sent,
      wrong,
      sentAt: Date.now(),
    };
    const body = `OUI ${sent}`;
    const records = await Promise.all(
      (op.pick % 4 === 1 ? [0, 1] : [0]).map((twin) =>
        this.inbound({ ...base, seq: base.seq * 2 + twin }, sid, body, meta),
      ),
    );
    if (!wrong && records.some((r) => r.outcome === 'ack') && target.stage === 'created') {
      // The grower reads Filière's answer on his phone.
      const answers = await this.options.inbox(user.phone).catch(() => []);
      if (answers.some((t) => t.includes(`contrat ${target.reference} accepté`)))
        target.stage = 'confirmed';
    }
  }

  /**
   * One SMS from the grower's phone as Twilio delivers it to the inbound webhook: signed for
   * the API it reaches, retried (the same MessageSid) on no answer or a 5xx. Recorded as a
   * 'reply-contract' command: acknowledged when an answer was 2xx.
   */
  private async inbound(
    ctx: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    sid: string,
    body: string,
    meta: Record<string, unknown>,
  ): Promise<CommandRecord> {
    const record: CommandRecord = {
      client: ctx.user.index,
      seq: ctx.seq,
      command: 'reply-contract',
      userId: ctx.user.id,
      key: sid,
      attempts: [],
      outcome: 'unack',
      meta,
    };
    this.commands.push(record);
    const maxAttempts = ctx.delivery.retry ? 4 : 1;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const sentAt = Date.now();
      const api = this.options.apiUrls[ctx.routing.int(0, this.options.apiUrls.length - 1)]!;
      const url = `${api}${TWILIO_INBOUND_PATH}`;
      const { params, signature } = this.options.twilio.incoming(url, {
        sid,
        from: ctx.user.phone,
        body,
      });
      let status: number | undefined;
      let error: 'timeout' | 'connection' | undefined;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': signature,
          },
          body: new URLSearchParams(params).toString(),
          signal: AbortSignal.timeout(NORMAL_TIMEOUT_MS),
        });
        await res.text();
        status = res.status;
      } catch (e) {
        const name = (e as Error).name;
        error = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection';
      }
      record.attempts.push({
        ...(status !== undefined ? { status } : { error: error! }),
        atMs: sentAt - this.startedAt,
      });
      if (status !== undefined) record.status = status;
      if (status !== undefined && status < 500) {
        record.outcome = status < 300 ? 'ack' : 'refused';
        record.meta = { ...meta, answeredAt: Date.now() };
        return record;
      }
      await sleep(200 + ctx.routing.int(0, 300));
    }
    return record;
  }

  /** An aggregator's delivery contract step (see PlannedOp 'contract'). */
  private async contract(
    base: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    op: Extract<PlannedOp, { kind: 'contract' }>,
  ) {
    const { user, routing } = base;
    const mine = (...stages: Contract['stage'][]) =>
      this.contracts.filter((c) => c.aggregatorId === user.id && stages.includes(c.stage));
    // Nothing at the drawn stage: the step before it (run → deliver → create), so contracts
    // flow to their runs; sometimes a delivery is tried on an unconfirmed one (refused).
    let action = op.action;
    if (action === 'run' && !mine('delivered').length && !(op.rerun && mine('run').length))
      action = 'deliver';
    if (action === 'deliver' && !mine('confirmed').length && !(op.rerun && mine('created').length))
      action = 'create';
    if (action === 'cancel' && !mine('created', 'confirmed', 'delivered').length) action = 'create';
    switch (action) {
      case 'create': {
        const growers = this.options.population.members.filter(
          (m) => m.cluster === user.cluster && m.plotId,
        );
        const grower = growers[op.pick % growers.length];
        if (!grower) return this.readStats(user, routing);
        const created = await this.command(
          base,
          'create-contract',
          'POST',
          '/api/contracts/delivery-contract',
          {
            body: {
              growerId: grower.growerId,
              productId: grower.plotId,
              quantity: op.kg / 1000,
              amount: op.amount,
            },
            meta: { kg: op.kg, amount: op.amount, growerUserId: grower.id },
          },
        );
        const id = created.body?.contractId;
        if (created.outcome === 'ack' && typeof id === 'string') {
          this.contracts.push({
            id,
            reference: String(created.body?.reference),
            aggregatorId: user.id,
            growerUserId: grower.id,
            kg: op.kg,
            stage: 'created',
            byReply: this.contracts.length % 2 === 1,
          });
        }
        return;
      }
      case 'deliver': {
        // Mostly confirmed contracts; a created one answers 'not yet confirmed' (refused).
        const ready = mine('confirmed');
        const from = ready.length ? ready : mine('created');
        if (!from.length) return this.readStats(user, routing);
        const target = from[op.pick % from.length]!;
        const kg = Math.max(1, Math.round((target.kg * op.deliveredPct) / 100));
        if (op.pick % 2 === 1) {
          // At the scale: delivered and paid in one POST, its key made once per weighing and
          // sent twice at once (a double tap, an offline queue replaying it).
          const key = this.nextKey(user, base.seq);
          const weighedOn = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
          const weigh = () =>
            this.command(base, 'weigh-and-pay', 'POST', '/api/contracts/collection/weighings', {
              body: { contractId: target.id, kilograms: kg, grade: 'A', weighedOn },
              meta: { contractId: target.id, kg },
              key,
            });
          const answers = await Promise.all([weigh(), weigh()]);
          if (answers.some((a) => a.outcome === 'ack')) target.stage = 'run';
          return;
        }
        const recorded = await this.command(
          base,
          'record-delivery',
          'PATCH',
          `/api/contracts/delivery-contract/${target.id}/delivery`,
          { body: { quantity: kg / 1000 }, meta: { contractId: target.id, kg } },
        );
        // 'déjà enregistrée' (422): an unacknowledged earlier try took effect.
        const already = String(recorded.body?.message ?? '').includes('déjà enregistrée');
        if (recorded.outcome === 'ack' || already) target.stage = 'delivered';
        return;
      }
      case 'cancel': {
        // An open one, sometimes a delivered one (refused: a delivered contract stays).
        const open = mine('created', 'confirmed');
        const from = op.rerun || !open.length ? mine('delivered', 'created', 'confirmed') : open;
        if (!from.length) return this.readStats(user, routing);
        const target = from[op.pick % from.length]!;
        const canceled = await this.command(
          base,
          'cancel-contract',
          'DELETE',
          `/api/contracts/delivery-contract/${target.id}`,
          { meta: { contractId: target.id } },
        );
        if (canceled.outcome === 'ack') target.stage = 'canceled';
        return;
      }
      case 'run': {
        const delivered = mine('delivered').slice(0, 3);
        const ran = mine('run');
        const ids = [
          ...delivered,
          ...(ran.length && (op.rerun || !delivered.length) ? [ran[op.pick % ran.length]!] : []),
        ].map((c) => c.id);
        if (!ids.length) return this.readStats(user, routing);
        const key = op.runMode === 'same-key' ? this.nextKey(user, base.seq) : undefined;
        const run = () =>
          this.command(base, 'run-contracts', 'POST', '/api/contracts/run-contracts', {
            body: { ids },
            meta: { ids, mode: op.runMode },
            ...(key ? { key } : {}),
          });
        const records =
          op.runMode === 'concurrent' || op.runMode === 'same-key'
            ? await Promise.all([run(), run()])
            : [await run()];
        if (op.runMode === 'double') records.push(await run());
        if (records.some((r) => r.outcome === 'ack')) for (const c of delivered) c.stage = 'run';
        return;
      }
    }
  }

  /** A confirmation of delivery by code (see PlannedOp 'deliver'). */
  private async deliver(
    base: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    op: Extract<PlannedOp, { kind: 'deliver' }>,
  ) {
    const { user } = base;
    const mine = this.codes.filter(
      (c) => user.role === 'ROLE_INPUT_PROVIDER' || c.aggregatorId === user.id,
    );
    const open = mine.filter((c) => !c.delivered);
    const from = op.stale || open.length === 0 ? mine : open;
    if (from.length === 0) return this.readStats(user, base.routing);
    const target = from[op.pick % from.length]!;
    await this.command(
      base,
      'find-code',
      'GET',
      `/api/input-provider/find-by-code/${target.code}`,
      { meta: { requestId: target.requestId, code: target.code } },
    );
    // A code already delivered answers find-by-code with a refusal: the client confirms anyway
    // (a late or mistaken confirmation), which must be refused without paying again.
    const confirm = (who: TortureUser, second: boolean) =>
      this.command(
        { ...base, user: who },
        'deliver',
        'POST',
        `/api/input-provider/make-delivery/${target.requestId}`,
        // The grower's code: the server pays nothing without it.
        {
          body: { code: target.code },
          meta: { requestId: target.requestId, mode: op.mode, second },
        },
      );
    const records =
      op.mode === 'concurrent'
        ? await Promise.all([
            confirm(user, false),
            confirm(
              user.role === 'ROLE_INPUT_PROVIDER'
                ? this.options.population.members.find((m) => m.id === target.aggregatorId)!
                : this.options.population.providers[
                    op.pick % this.options.population.providers.length
                  ]!,
              true,
            ),
          ])
        : [await confirm(user, false)];
    if (op.mode === 'double') records.push(await confirm(user, true));
    if (records.some((r) => r.outcome === 'ack' || r.status === 409)) target.delivered = true;
  }

  private async command(
    ctx: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    command: CommandName,
    method: Method,
    path: string,
    request: { body?: unknown; meta: Record<string, unknown>; key?: string },
  ): Promise<CommandRecord> {
    // Every money command carries a key (the API answers 400 without one), verifications too;
    // two sends of one command (a double click) share theirs.
    const key = request.key ?? this.nextKey(ctx.user, ctx.seq);
    const record: CommandRecord = {
      client: ctx.user.index,
      seq: ctx.seq,
      command,
      userId: ctx.user.id,
      key,
      attempts: [],
      outcome: 'unack',
      meta: request.meta,
    };
    this.commands.push(record);
    const maxAttempts = ctx.delivery.retry ? 4 : 1;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const timeoutMs =
        ctx.delivery.shortTimeout && attempt === 0 ? SHORT_TIMEOUT_MS : NORMAL_TIMEOUT_MS;
      const sentAt = Date.now();
      const answer = await this.http(
        ctx.user,
        ctx.routing,
        method,
        path,
        request.body,
        key,
        timeoutMs,
      );
      record.attempts.push({
        ...('error' in answer ? { error: answer.error } : { status: answer.status }),
        atMs: sentAt - this.startedAt,
      });
      if ('status' in answer && answer.status < 500) {
        record.status = answer.status;
        record.outcome = answer.status < 300 ? 'ack' : 'refused';
        record.body = answer.body;
        return record;
      }
      if ('status' in answer) record.status = answer.status;
      await sleep(200 + ctx.routing.int(0, 300));
    }
    return record;
  }

  private nextKey(user: TortureUser, seq: number): string {
    return `t${user.index}-${seq}-${++this.keyCounter}`;
  }

  private async readStats(user: TortureUser, routing: Prng): Promise<void> {
    this.reads.tried++;
    const sentAt = Date.now();
    const answer = await this.http(
      user,
      routing,
      'GET',
      '/api/wallet/stats',
      undefined,
      undefined,
      NORMAL_TIMEOUT_MS,
    );
    if ('status' in answer && answer.status === 200 && answer.body) {
      this.observations.push({
        client: user.index,
        walletId: user.walletId,
        balance: Number(answer.body.balance),
        availableBalance: Number(answer.body.availableBalance),
      });
    } else {
      this.reads.failed++;
      this.failedReads.push({
        ...('error' in answer ? { error: answer.error } : { status: answer.status }),
        atMs: sentAt - this.startedAt,
      });
    }
  }

  private async http(
    user: TortureUser,
    routing: Prng,
    method: Method,
    path: string,
    body: unknown,
    key: string | undefined,
    timeoutMs: number,
  ): Promise<
    { status: number; body?: Record<string, unknown> } | { error: 'timeout' | 'connection' }
  > {
    const url = this.options.apiUrls[routing.int(0, this.options.apiUrls.length - 1)]!;
    const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
    if (key) headers['idempotency-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, ...(parsed ? { body: parsed } : {}) };
    } catch (error) {
      const name = (error as Error).name;
      return { error: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection' };
    }
  }
}
