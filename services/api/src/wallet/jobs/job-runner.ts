import { sql, type Kysely } from 'kysely';
import { persistently, type Logger } from '@filiere/platform';
import { applyVerification, loadSupply } from '../commands/supply-commands.js';
import type { JobScheduler, WalletDeps } from '../commands/context.js';
import {
  handleCommand,
  readStream,
  readStreams,
  requestFingerprint,
  streamRef,
} from '@filiere/event-store';
import {
  completeWithdrawal,
  evolveWithdrawal,
  expireSupply,
  supplyStream,
  supplyStreamId,
  failWithdrawal,
  initialWithdrawalState,
  systemActor,
  walletStream,
  walletStreamId,
  withdrawalStream,
  withdrawalStreamId,
  type WalletEvent,
  type WithdrawalState,
} from '../domain/index.js';
import type { PayoutRequest, ProviderTransaction } from '../providers/port.js';
import { JobStore, type WalletJob, type WalletJobsTables } from './job-store.js';

export interface RunnerOptions {
  /** First retry delay; doubles per attempt (with ±20 % jitter) up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a claimed job is leased to this process. */
  leaseMs?: number;
  /**
   * How many due jobs one statement claims; they run together (default 64). Every job of a
   * batch starts at once: none waits behind another for the provider past its lease.
   */
  batchSize?: number;
  /** A recovery reads the whole log at the start and then every this many sweeps (60). */
  fullSweepEvery?: number;
  /**
   * Positions a sweep reads again behind the log's head at the previous one (10,000), so an
   * append committed after that sweep with a lower position is still seen.
   */
  sweepMargin?: number;
  /**
   * How long after its creation a mobile-money or card supply the provider knows no payment
   * for is given up (SUPPLY_ABANDON_MINUTES, default 30 min).
   */
  supplyAbandonMs?: number;
  /** The longest wait between two checks of an open supply (30 s), so a payment is seen soon. */
  supplyCheckMaxDelayMs?: number;
}

/**
 * A job's run: finished, or to retry (after `delayMs` when the job chooses its own wait;
 * `routine`: an expected wait, such as a supply not paid yet, logged at debug, not warn).
 */
type Outcome = { done: true } | { done: false; error: string; delayMs?: number; routine?: boolean };

/** The reason a supply given up by its background check carries (the payer reads it). */
export function abandonReason(abandonMs: number): string {
  const minutes = Math.max(1, Math.round(abandonMs / 60_000));
  return `Aucun paiement reçu du fournisseur dans les ${minutes} minute${minutes > 1 ? 's' : ''} : approvisionnement abandonné`;
}

/**
 * Runs the wallet's background jobs from the `wallet_jobs` table: withdrawal payouts
 * (SUCCESS completes, FAILED refunds, PENDING or an unavailable provider retries later) and
 * checks of PENDING supplies (until the provider's answer is final). Every step is a
 * pipeline command whose decider is idempotent, so a job run twice changes nothing twice.
 */
export class WalletJobRunner<
  DB extends WalletJobsTables = WalletJobsTables,
> implements JobScheduler {
  readonly store: JobStore<DB>;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly fullSweepEvery: number;
  private readonly sweepMargin: number;
  readonly supplyAbandonMs: number;
  private readonly supplyCheckMaxDelayMs: number;
  /** The log's head when the last recovery began (null: none yet, the next reads it all). */
  private sweptHead: number | null = null;
  private sweepsSinceFull = 0;
  /** Told after a job was added (the in-process loop or BullMQ wakes up). */
  onScheduled: (runAt: Date) => void = () => undefined;

  constructor(
    private readonly deps: () => WalletDeps,
    db: Kysely<DB>,
    private readonly logger: Logger,
    options: RunnerOptions = {},
  ) {
    this.store = new JobStore(db);
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 10 * 60_000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.fullSweepEvery = Math.max(1, options.fullSweepEvery ?? 60);
    this.sweepMargin = Math.max(0, options.sweepMargin ?? 10_000);
    this.supplyAbandonMs = Math.max(0, options.supplyAbandonMs ?? 30 * 60_000);
    this.supplyCheckMaxDelayMs = Math.max(1, options.supplyCheckMaxDelayMs ?? 30_000);
  }

  async schedulePayout(withdrawalId: string): Promise<void> {
    // Right after the withdrawal's commit: a PostgreSQL restart at that moment must not leave
    // the debit without its payout job until the next recovery sweep (the bank test found one).
    await persistently(() =>
      this.store.add({
        id: `payout:${withdrawalId}`,
        kind: 'PAYOUT',
        payload: { withdrawalId },
      }),
    );
    this.onScheduled(new Date());
  }

  /**
   * Checks a mobile-money or card supply against its provider until it is final: from its
   * creation (no `transactionId`: looked up by reference), and again at once when a widget
   * reports its transaction. A supply has one check (`verify:<reference>`); scheduling it again
   * adds the transaction id and brings its run time forward.
   */
  async scheduleSupplyCheck(
    reference: string,
    options: { transactionId?: string; expiresAt?: Date; now?: boolean } = {},
  ): Promise<void> {
    const runAt = new Date(Date.now() + (options.now ? 0 : this.delay(0)));
    await persistently(() =>
      this.store.addSupplyCheck({
        reference,
        ...(options.transactionId ? { transactionId: options.transactionId } : {}),
        expiresAt: options.expiresAt ?? new Date(Date.now() + this.supplyAbandonMs),
        runAt,
      }),
    );
    this.onScheduled(runAt);
  }

  delay(attempts: number): number {
    const raw = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** attempts);
    return Math.round(raw * (0.8 + Math.random() * 0.4));
  }

  /**
   * Re-creates jobs from the ledger's state: every withdrawal still PENDING gets its payout
   * job (a crash between the debit's commit and the job's insert loses nothing).
   */
  async recover(): Promise<number> {
    const db = this.deps().db;
    // The first recovery of a process and every `fullSweepEvery`-th read every withdrawal of
    // the log; the others only those appended since the previous one began (less a margin),
    // through the partial index events_withdrawal_requested_idx: a lost job insert is found
    // by the next sweep all the same, without reading the whole log every minute.
    const full = this.sweptHead === null || this.sweepsSinceFull >= this.fullSweepEvery;
    const since = full ? 0 : Math.max(0, this.sweptHead! - this.sweepMargin);
    const head = Number(
      (
        await sql<{ head: string | null }>`select max(position)::text as head from events`.execute(
          db,
        )
      ).rows[0]?.head ?? 0,
    );
    const { rows } = await sql<{ id: string }>`
      select e.data->>'withdrawalId' as id from events e
      where e.type = 'WithdrawalRequested' and e.position > ${since}
        and not exists (select 1 from events f where f.stream_id = e.stream_id
                        and f.type in ('WithdrawalCompleted', 'WithdrawalFailed'))`.execute(db);
    this.sweptHead = head;
    this.sweepsSinceFull = full ? 1 : this.sweepsSinceFull + 1;
    // One insert (per 5,000), not one per withdrawal: during a run of 10,000 contracts every
    // sweep found thousands of PENDING withdrawals and inserted (or skipped) each on its own.
    const added =
      (await this.store.addPayouts(rows.map((r) => r.id))) + (await this.recoverSupplies(since));
    if (added) this.onScheduled(new Date());
    return added;
  }

  /**
   * Every mobile-money or card supply appended since `since` and not final gets its check
   * back (a process killed between the supply's commit and the job insert, or a supply made
   * before supplies were checked from their creation), its abandon time counted from the
   * supply's creation. Through the partial index events_supply_initiated_idx.
   */
  private async recoverSupplies(since: number): Promise<number> {
    const { rows } = await sql<{ reference: string; at: Date }>`
      select e.data->>'reference' as reference, e.recorded_at as at from events e
      where e.type = 'SupplyInitiated' and e.position > ${since}
        and e.data->>'method' <> 'BANK'
        and not exists (select 1 from events f where f.stream_id = e.stream_id
                        and f.type in ('SupplySucceeded', 'SupplyFailed', 'SupplyCancelled',
                                       'SupplyRejected'))`.execute(this.deps().db);
    return this.store.addSupplyChecks(
      rows.map((r) => ({
        reference: r.reference,
        expiresAt: new Date(new Date(r.at).getTime() + this.supplyAbandonMs),
      })),
    );
  }

  /**
   * The loop's housekeeping (every `recoverEveryMs` of `InProcessJobLoop`): recovery again,
   * since a job insert can be lost after the start too (a process killed, the database away).
   */
  async sweep(): Promise<void> {
    await this.recover();
  }

  /** Runs the jobs due at `now` (default: now); returns how many ran. */
  async runDue(now = new Date(), limit = 256): Promise<number> {
    // Jobs are claimed in batches (one statement, one token, each job fenced by its id and
    // that token) and a batch runs together: its withdrawals read in one query, every payout
    // asked of the provider at once, the outcomes group-committed by the pipeline, the
    // finished jobs removed in one statement. A batch once ran its jobs one after another:
    // the last ones waited behind a slow provider past their lease, another worker ran them
    // meanwhile, and the stale copy (without the provider's payout id) paid them a second
    // time (the bank test found it). Now no job waits behind another, and the provider id is
    // stored under the job's own claim before any payout starts, so a runner whose lease
    // ran out and was taken over stops before money moves, whatever the batch's size.
    const ran: string[] = [];
    while (ran.length < limit) {
      // Each job once per call, as before (a retried one waits for its next run_at).
      const jobs = await this.store.claimDue(
        now,
        this.leaseMs,
        ran,
        Math.min(this.batchSize, limit - ran.length),
      );
      if (jobs.length === 0) break;
      for (const job of jobs) ran.push(job.id);
      const withdrawals = await this.withdrawalsOf(jobs).catch(() => undefined);
      const outcomes = await Promise.all(
        jobs.map((job) =>
          this.runOne(job, now, withdrawals).catch((error: unknown): Outcome => ({
            done: false,
            error: error instanceof Error ? error.message : String(error),
          })),
        ),
      );
      const finished = jobs.filter((_, i) => outcomes[i]!.done);
      if (finished.length) {
        await persistently(() => this.store.doneMany(finished.map((job) => job.claim)));
      }
      await Promise.all(
        jobs.map(async (job, i) => {
          const outcome = outcomes[i]!;
          if (outcome.done) return;
          const delay = outcome.delayMs ?? this.delay(job.attempts);
          this.logger[outcome.routine ? 'debug' : 'warn'](
            { job: job.id, attempts: job.attempts + 1, retryInMs: delay, reason: outcome.error },
            'wallet job will be retried',
          );
          // A database restarting under the job (the bank test's fault) would otherwise leave
          // it leased, hence untouched, for the rest of its lease.
          await persistently(() =>
            this.store.retry(job.claim, job.attempts + 1, delay, outcome.error),
          );
          this.onScheduled(new Date(Date.now() + delay));
        }),
      );
    }
    return ran.length;
  }

  /**
   * The batch's withdrawals, folded from the log itself in one query (never from this
   * process's cached states: another process may have settled one meanwhile, and paying on
   * a stale PENDING pays twice — the bank test found such double payouts).
   */
  private async withdrawalsOf(jobs: WalletJob[]): Promise<Map<string, WithdrawalState>> {
    const ids = jobs
      .filter((job) => job.kind === 'PAYOUT')
      .map((job) => String(job.payload.withdrawalId));
    const deps = this.deps();
    const events = await readStreams(
      deps.db,
      ids.map(withdrawalStreamId),
      deps.pipeline.store.catalogue,
    );
    return new Map(
      ids.map((id) => [
        id,
        events
          .get(withdrawalStreamId(id))!
          .reduce(
            (state, event) => evolveWithdrawal(state, event as unknown as WalletEvent),
            initialWithdrawalState(),
          ),
      ]),
    );
  }

  private runOne(
    job: WalletJob,
    now: Date,
    withdrawals?: Map<string, WithdrawalState>,
  ): Promise<Outcome> {
    return job.kind === 'PAYOUT'
      ? this.payout(job, withdrawals?.get(String(job.payload.withdrawalId)))
      : this.checkSupply(job, now);
  }

  /**
   * One step of a withdrawal's payout. The first run asks the provider to pay; the provider
   * id is stored in the job before any money moves, and from then on every run only
   * re-checks that payout (`checkPayout`), so a timeout, a 5xx, a PENDING answer or a
   * restart never pays twice. SUCCESS completes the withdrawal, FAILED refunds it (both
   * idempotent commands), anything else retries with backoff.
   */
  private async payout(job: WalletJob, read?: WithdrawalState): Promise<Outcome> {
    const withdrawalId = String(job.payload.withdrawalId);
    const known = typeof job.payload.providerId === 'string' ? job.payload.providerId : undefined;
    const deps = this.deps();
    const stream = withdrawalStreamId(withdrawalId);
    // Read from the log itself (the batch's read, or this job's alone when that one failed),
    // never from this process's cached state: another process may have settled the
    // withdrawal meanwhile, and paying on a stale PENDING pays twice (the bank test found
    // such double payouts).
    const withdrawal =
      read ??
      (await readStream(deps.db, stream, { catalogue: deps.pipeline.store.catalogue })).reduce(
        (state, event) => evolveWithdrawal(state, event as unknown as WalletEvent),
        initialWithdrawalState(),
      );
    if (!withdrawal.exists || withdrawal.status !== 'PENDING') return { done: true };
    const w = withdrawal;
    const request: PayoutRequest = {
      reference: withdrawalId,
      amount: w.amount,
      method: w.method!,
      destination: w.destination!,
    };
    // The provider id is written under this claim, before the payout is started: a runner
    // whose lease ran out and was taken over stops here, before any money moves.
    const remember = async (providerId: string) => {
      if (!(await this.store.setPayload(job.claim, { ...job.payload, providerId }))) {
        throw new Error(`lease of ${job.id} lost before the payout started`);
      }
    };
    const answer = known
      ? await deps.provider.checkPayout(known, request)
      : await deps.provider.payout(request, { created: remember });
    if (answer.status === 'PENDING') {
      if (answer.providerId && answer.providerId !== known) await remember(answer.providerId);
      return { done: false, error: `payout PENDING (${answer.providerId ?? 'no id'})` };
    }
    // The key names the whole request (one completion or one refund of one withdrawal).
    await handleCommand(deps.pipeline, {
      streams: {
        withdrawal: streamRef(withdrawalStream, stream),
        wallet: streamRef(walletStream, walletStreamId(w.walletId!)),
      },
      idempotency: {
        key: `payout-${answer.status}-${withdrawalId}`,
        fingerprint: requestFingerprint('payout', { withdrawalId, status: answer.status }),
      },
      metadata: { userId: systemActor.userId },
      decide: (states) =>
        answer.status === 'SUCCESS'
          ? completeWithdrawal(
              states.withdrawal,
              { withdrawalId, providerId: answer.providerId ?? null },
              { bankCode: deps.bank.code },
            )
          : failWithdrawal(states, {
              withdrawalId,
              reason: answer.reason ?? 'Paiement refusé par le fournisseur',
            }),
    });
    return { done: true };
  }

  /**
   * One check of an open mobile-money or card supply. The provider is asked about the
   * transaction a widget reported, if any, and for every transaction carrying the supply's
   * reference (`paymentsFor`), so a payment no page reported is found all the same. A payment
   * found is applied as the page's verification would be (credited once: the decider and the
   * wallet's processed transaction ids make a second credit a no-op, whoever comes second); the
   * reported transaction's final answer is applied likewise. With nothing decisive, a supply
   * past its abandon time that the provider does not hold PENDING is given up (FAILED, expired,
   * with its reason); otherwise it is checked again, soon (at most `supplyCheckMaxDelayMs`, and
   * not after its abandon time). `now` is the runner's clock (tests move it).
   */
  private async checkSupply(job: WalletJob, now: Date): Promise<Outcome> {
    const reference = String(job.payload.reference);
    const known =
      typeof job.payload.transactionId === 'string' ? job.payload.transactionId : undefined;
    const expiresAt =
      typeof job.payload.expiresAt === 'string' ? new Date(job.payload.expiresAt) : null;
    const deps = this.deps();
    const supply = await loadSupply(deps, reference);
    if (supply.method === 'BANK' || supply.status === 'SUCCESS' || supply.status === 'FAILED')
      return { done: true };
    const answers: ProviderTransaction[] = [];
    if (known) answers.push(await deps.provider.verify(known));
    if (deps.provider.paymentsFor) answers.push(...(await deps.provider.paymentsFor(reference)));
    const ours = answers.filter((a) => a.reference === reference);
    const decisive =
      ours.find((a) => a.status === 'SUCCESS') ??
      ours.find((a) => a.transactionId === known && a.status === 'FAILED');
    const pending = ours.find((a) => a.status === 'PENDING');
    if (decisive || (pending && supply.status === 'INIT')) {
      const result = await applyVerification(deps, systemActor, reference, (decisive ?? pending)!);
      if (result.status === 'SUCCESS' || result.status === 'FAILED') return { done: true };
    }
    if (!pending && expiresAt && now.getTime() >= expiresAt.getTime()) {
      await this.expire(reference);
      return { done: true };
    }
    const backoff = Math.min(this.supplyCheckMaxDelayMs, this.delay(job.attempts));
    const untilExpiry = expiresAt ? expiresAt.getTime() - now.getTime() : Infinity;
    return {
      done: false,
      error: pending ? `supply payment PENDING (${pending.transactionId})` : 'no payment yet',
      routine: true,
      delayMs: Math.max(1, Math.min(backoff, pending ? backoff : untilExpiry)),
    };
  }

  /** Gives up a supply no payment was found for (idempotent: one FAILED, whoever runs it). */
  private async expire(reference: string): Promise<void> {
    await handleCommand(this.deps().pipeline, {
      streams: { supply: streamRef(supplyStream, supplyStreamId(reference)) },
      idempotency: {
        key: `supply-expired-${reference}`,
        fingerprint: requestFingerprint('supply-expired', { reference }),
      },
      metadata: { userId: systemActor.userId },
      decide: ({ supply }) =>
        expireSupply(
          supply,
          { reference, reason: abandonReason(this.supplyAbandonMs) },
          systemActor,
        ),
    });
  }
}
