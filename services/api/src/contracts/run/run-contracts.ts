import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  BusinessRuleError,
  ForbiddenError,
  isAppError,
  LeasedJobs,
  narrowDb,
  NotFoundError,
  persistently,
  type Claimed,
  type Logger,
  type LoopRunner,
  ValidationError,
} from '@filiere/platform';
import type { PushMessage, PushPublisher } from '@filiere/projections';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { schedulePayoutJob, type WalletJobsTables } from '../../wallet/index.js';
import { contractsPush } from '../pushes.js';
import type { ContractJobColumns, ContractsTables } from '../tables.js';
import type { ContractSettler, SettleOutcome } from './settle-contract.js';

export type RunTables = Pick<
  ContractsTables,
  'contract_runs' | 'contract_run_items' | 'contract_jobs' | 'delivery_contracts'
>;

/** At most this many contracts in one run (the benchmark's 10,000). */
export const MAX_RUN_CONTRACTS = 10_000;

export interface RunAnswer {
  runId: string;
  status: 'RUNNING' | 'DONE';
  total: number;
  done: number;
}

export interface RunProgress extends RunAnswer {
  completed: number;
  failed: number;
  createdAt: string;
  items: {
    contractId: string;
    reference: string | null;
    status: 'PENDING' | 'COMPLETED' | 'FAILED';
    error: string | null;
    growerNet: number | null;
    recoveredAmount: number | null;
    payoutId: string | null;
  }[];
}

const seesAll = (user: SignedInUser) =>
  user.role_code === ROLE.SUPER_ADMIN || user.role_code === ROLE.ADMIN;

/** A run's id from the caller and its Idempotency-Key: the same key names the same run. */
const runIdOf = (userId: string, key: string) => {
  const hex = createHash('sha256').update(`${userId}:contracts.run:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * `POST contracts/run-contracts {ids}`: checks the contracts are the caller's and delivered
 * (or already paid: a double click runs nothing twice), records the run, one item and one
 * leased job per contract in one transaction, and answers at once (202); the jobs run in the
 * background (`ContractRunRunner`). `GET contracts/runs/{runId}`: the run's progress.
 */
export class ContractRuns {
  constructor(private readonly db: Kysely<RunTables>) {}

  async start(user: SignedInUser, ids: string[], idempotencyKey?: string): Promise<RunAnswer> {
    const contractIds = [...new Set(ids)];
    if (contractIds.length === 0) {
      throw new ValidationError('Aucun contrat sélectionné', {
        fields: { ids: 'Ce champ est obligatoire' },
      });
    }
    const runId = idempotencyKey ? runIdOf(user.id, idempotencyKey) : randomUUID();
    if (idempotencyKey) {
      const existing = await this.answerOf(runId);
      if (existing) return existing;
    }
    const rows = await this.db
      .selectFrom('delivery_contracts')
      .select(['id', 'reference', 'status', 'aggregator_user_id'])
      .where('id', 'in', contractIds)
      .execute();
    const found = new Map(rows.map((r) => [r.id, r]));
    const missing = contractIds.filter((id) => !found.has(id));
    if (missing.length) throw new NotFoundError('Contrat introuvable', { ids: missing });
    if (!seesAll(user) && rows.some((r) => r.aggregator_user_id !== user.id)) {
      throw new ForbiddenError('Ce contrat ne vous appartient pas');
    }
    const notDelivered = rows.filter((r) => r.status !== 'DELIVERED' && r.status !== 'COMPLETED');
    if (notDelivered.length) {
      throw new BusinessRuleError('Seul un contrat livré peut être exécuté', {
        references: notDelivered.map((r) => r.reference),
      });
    }
    await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('contract_runs')
        .values({
          id: runId,
          aggregator_user_id: user.id,
          idempotency_key: idempotencyKey ? `${user.id}:${idempotencyKey}` : null,
          total: contractIds.length,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      if (!inserted.length) return; // the same key, concurrently: that run stands
      for (let from = 0; from < contractIds.length; from += 5_000) {
        const slice = contractIds.slice(from, from + 5_000);
        await trx
          .insertInto('contract_run_items')
          .values(slice.map((id, i) => ({ run_id: runId, contract_id: id, position: from + i })))
          .execute();
        await trx
          .insertInto('contract_jobs')
          .values(slice.map((id) => ({ id: `${runId}:${id}`, run_id: runId, contract_id: id })))
          .execute();
      }
    });
    return (await this.answerOf(runId))!;
  }

  private async answerOf(runId: string): Promise<RunAnswer | undefined> {
    const run = await this.db
      .selectFrom('contract_runs')
      .select(['id', 'total'])
      .where('id', '=', runId)
      .executeTakeFirst();
    if (!run) return undefined;
    const done = await doneOf(this.db, runId);
    return { runId, status: done >= run.total ? 'DONE' : 'RUNNING', total: run.total, done };
  }

  async progress(user: SignedInUser, runId: string): Promise<RunProgress> {
    const run = await this.db
      .selectFrom('contract_runs')
      .selectAll()
      .where('id', '=', runId)
      .executeTakeFirst();
    if (!run) throw new NotFoundError('Exécution introuvable');
    if (!seesAll(user) && run.aggregator_user_id !== user.id) {
      throw new ForbiddenError('Cette exécution ne vous appartient pas');
    }
    const items = await this.db
      .selectFrom('contract_run_items as i')
      .leftJoin('delivery_contracts as c', 'c.id', 'i.contract_id')
      .select([
        'i.contract_id',
        'c.reference',
        'i.status',
        'i.error',
        'i.grower_net',
        'i.recovered_amount',
        'i.payout_id',
      ])
      .where('i.run_id', '=', runId)
      .orderBy('i.position')
      .execute();
    const completed = items.filter((i) => i.status === 'COMPLETED').length;
    const failed = items.filter((i) => i.status === 'FAILED').length;
    return {
      runId,
      status: completed + failed >= run.total ? 'DONE' : 'RUNNING',
      total: run.total,
      done: completed + failed,
      completed,
      failed,
      createdAt: new Date(run.created_at).toISOString(),
      items: items.map((i) => ({
        contractId: i.contract_id,
        reference: i.reference,
        status: i.status as 'PENDING' | 'COMPLETED' | 'FAILED',
        error: i.error,
        growerNet: i.grower_net === null ? null : Number(i.grower_net),
        recoveredAmount: i.recovered_amount === null ? null : Number(i.recovered_amount),
        payoutId: i.payout_id,
      })),
    };
  }
}

async function doneOf<DB extends RunTables>(db: Kysely<DB>, runId: string): Promise<number> {
  const row = await narrowDb<RunTables>()(db)
    .selectFrom('contract_run_items')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('run_id', '=', runId)
    .where('status', '!=', 'PENDING')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface RunnerOptions {
  /** How long a claimed contract job is leased (default 60 s): a dead runner's job is taken again after it. */
  leaseMs?: number;
  /** Contracts run at once by one runner (their commands share the pipeline's group commits). */
  concurrency?: number;
  /** First retry delay after a transient failure (database away…), doubling up to 5 minutes. */
  baseDelayMs?: number;
}

/**
 * Runs the contract jobs (`contract_jobs`, platform's LeasedJobs): claims due jobs, settles
 * each contract (`ContractSettler`, one pipeline command), records the item's outcome,
 * schedules the grower's payout job and removes the job — fenced by the claim, so a runner
 * whose lease ran out and was taken over changes nothing. A refusal (4xx: not delivered, a
 * wallet missing…) fails the item with its French message; anything else (the database away)
 * releases the job for a later try. Whatever happens between the append and the job's
 * removal, the next try finds the contract COMPLETED and writes nothing new.
 */
export class ContractRunRunner implements LoopRunner {
  private readonly jobs: LeasedJobs<ContractJobColumns>;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly baseDelayMs: number;
  onScheduled?: (runAt: Date) => void;

  constructor(
    private readonly db: Kysely<RunTables & WalletJobsTables>,
    private readonly settler: ContractSettler,
    private readonly publish: PushPublisher,
    private readonly logger: Logger,
    options: RunnerOptions = {},
  ) {
    this.jobs = new LeasedJobs<ContractJobColumns>(db, {
      table: 'contract_jobs',
      order: sql`run_at, id`,
    });
    this.leaseMs = options.leaseMs ?? 60_000;
    this.concurrency = options.concurrency ?? 32;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
  }

  /** Wakes the loop running this runner (after a run was recorded). */
  wake(): void {
    this.onScheduled?.(new Date());
  }

  async runDue(): Promise<number> {
    const claimed: Claimed<ContractJobColumns>[] = [];
    while (claimed.length < this.concurrency) {
      const job = await this.jobs.claimOne(this.leaseMs, { where: sql`run_at <= now()` });
      if (!job) break;
      claimed.push(job);
    }
    await Promise.all(claimed.map((job) => this.runJob(job)));
    return claimed.length;
  }

  private async runJob(job: Claimed<ContractJobColumns>): Promise<void> {
    let outcome: SettleOutcome;
    try {
      outcome = await this.settler.settle(job.contract_id);
    } catch (error) {
      if (isAppError(error) && error.statusCode < 500) {
        await this.finish(job, { status: 'FAILED', error: error.message });
        return;
      }
      const attempts = Number(job.attempts) + 1;
      const delay = Math.min(this.baseDelayMs * 2 ** (attempts - 1), 5 * 60_000);
      this.logger.warn({ err: error, contractId: job.contract_id }, 'contract run will retry');
      await persistently(() =>
        this.jobs.release(job.claim, {
          attempts,
          last_error: String((error as Error)?.message ?? error).slice(0, 500),
          run_at: new Date(Date.now() + delay),
        }),
      );
      return;
    }
    if (outcome.payoutId) await schedulePayoutJob(this.db, outcome.payoutId);
    await this.finish(job, {
      status: 'COMPLETED',
      error: null,
      grower_net: outcome.growerNet,
      recovered_amount: outcome.recoveredAmount,
      payout_id: outcome.payoutId,
    });
  }

  /** Records the item's outcome, removes the job (fenced), pushes the progress. */
  private async finish(
    job: Claimed<ContractJobColumns>,
    item: {
      status: 'COMPLETED' | 'FAILED';
      error: string | null;
      grower_net?: number;
      recovered_amount?: number;
      payout_id?: string | null;
    },
  ): Promise<void> {
    await persistently(() =>
      this.db
        .updateTable('contract_run_items')
        .set({ ...item, updated_at: new Date() })
        .where('run_id', '=', job.run_id)
        .where('contract_id', '=', job.contract_id)
        .execute(),
    );
    const removed = await persistently(() => this.jobs.remove(job.claim));
    if (!removed) return; // another claim took the job over: it reports
    const run = await this.db
      .selectFrom('contract_runs')
      .select(['aggregator_user_id', 'total'])
      .where('id', '=', job.run_id)
      .executeTakeFirst();
    if (!run) return;
    const done = await doneOf(this.db, job.run_id);
    const message: PushMessage = contractsPush({
      type: 'contracts.run',
      userIds: [run.aggregator_user_id],
      data: {
        runId: job.run_id,
        contractId: job.contract_id,
        status: item.status,
        done,
        total: run.total,
      },
    });
    try {
      await this.publish([message]);
    } catch (err) {
      this.logger.warn({ err }, 'contract run progress push failed');
    }
  }
}
