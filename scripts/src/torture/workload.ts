import { setTimeout as sleep } from 'node:timers/promises';
import { ClientPlan, type Delivery, type PlannedOp } from './plan.js';
import type { Population, TortureUser } from './population.js';
import { Prng } from './prng.js';
import type { ProviderStub } from './provider-stub.js';

export type CommandName = 'supply' | 'verify' | 'validate-supply' | 'transfer' | 'withdrawal';

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
}

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

  constructor(
    private readonly options: {
      seed: number;
      population: Population;
      apiUrls: string[];
      stub: ProviderStub;
      /** Stops when it answers true (checked between operations). */
      shouldStop: () => boolean;
      /** Pause between two operations of a client, to spread the load. */
      thinkMs?: number;
    },
  ) {}

  async run(): Promise<WorkloadResult> {
    const { population } = this.options;
    this.startedAt = Date.now();
    await Promise.all(population.members.map((user) => this.client(user)));
    return {
      commands: this.commands,
      observations: this.observations,
      reads: this.reads,
      failedReads: this.failedReads,
      plannedOps: this.plannedOps,
    };
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
    }
  }

  private async command(
    ctx: { user: TortureUser; seq: number; routing: Prng; delivery: Delivery },
    command: CommandName,
    method: 'GET' | 'POST',
    path: string,
    request: { body?: unknown; meta: Record<string, unknown> },
  ): Promise<CommandRecord> {
    // Every money command carries a key (the API answers 400 without one), verifications too.
    const key = `t${ctx.user.index}-${ctx.seq}-${++this.keyCounter}`;
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
    method: 'GET' | 'POST',
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
