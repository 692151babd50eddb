import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { StaleReadError, type EventStore } from '@filiere/event-store';
import {
  type AppError,
  BusinessRuleError,
  ConcurrencyError,
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
import { schedulePayoutJobs, type WalletJobsTables } from '../../wallet/index.js';
import {
  contractStream,
  contractStreamId,
  type ContractEvent,
  type SettlementBreakdown,
} from '../domain/index.js';
import { contractsPush } from '../pushes.js';
import type { ContractJobColumns, ContractsTables } from '../tables.js';
import type { ContractSettler, SettleResult } from './settle-contract.js';

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
    /** Where the recoveries went (kept by the aggregator, repaid to SFDs); null until run. */
    breakdown: SettlementBreakdown | null;
    payoutId: string | null;
  }[];
}

/** What a run checks of each contract before recording it. */
interface RunContract {
  reference: string;
  status: string;
  aggregatorUserId: string;
}

/** Delivered, or already paid (a double click runs nothing twice). */
const runnable = (status: string | undefined) => status === 'DELIVERED' || status === 'COMPLETED';

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
  constructor(
    private readonly db: Kysely<RunTables>,
    /** The log: the contracts the read table does not show delivered yet are read from it. */
    private readonly store: Pick<EventStore, 'readStreams'>,
  ) {}

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
    const found = await this.contractsOf(contractIds);
    const missing = contractIds.filter((id) => !found.has(id));
    if (missing.length) throw new NotFoundError('Contrat introuvable', { ids: missing });
    const rows = [...found.values()];
    if (!seesAll(user) && rows.some((r) => r.aggregatorUserId !== user.id)) {
      throw new ForbiddenError('Ce contrat ne vous appartient pas');
    }
    const notDelivered = rows.filter((r) => !runnable(r.status));
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
      await sql`insert into contract_run_items (run_id, contract_id, position)
        select ${runId}::uuid, c.id, c.n - 1
        from unnest(${contractIds}::text[]) with ordinality as c(id, n)`.execute(trx);
      await sql`insert into contract_jobs (id, run_id, contract_id)
        select ${runId} || ':' || c.id, ${runId}::uuid, c.id
        from unnest(${contractIds}::text[]) as c(id)`.execute(trx);
    });
    return (await this.answerOf(runId))!;
  }

  /**
   * `POST contracts/run-delivered`: runs every contract of the aggregator that its list shows
   * delivered ('Livraison disponible'), oldest first, at most MAX_RUN_CONTRACTS — the
   * list's filter and count, then one run as `start`. None → 400.
   */
  async startDelivered(user: SignedInUser, idempotencyKey?: string): Promise<RunAnswer> {
    if (idempotencyKey) {
      const existing = await this.answerOf(runIdOf(user.id, idempotencyKey));
      if (existing) return existing;
    }
    const rows = await this.db
      .selectFrom('delivery_contracts')
      .select('id')
      .where('aggregator_user_id', '=', user.id)
      .where('status', '=', 'DELIVERED')
      .orderBy('created_at')
      .orderBy('id')
      .limit(MAX_RUN_CONTRACTS)
      .execute();
    if (rows.length === 0) throw new ValidationError('Aucun contrat livré à exécuter');
    return this.start(
      user,
      rows.map((r) => r.id),
      idempotencyKey,
    );
  }

  /**
   * The contracts' owner, reference and status: from the read table, and for those it does not
   * show delivered (or at all), from their streams — the read table follows the log a moment
   * behind (more while a worker restarts), and a delivery recorded a second ago, perhaps by
   * another API process, is run, not refused.
   */
  private async contractsOf(contractIds: string[]): Promise<Map<string, RunContract>> {
    // One array parameter each (= any, unnest), whatever the run's size: a bind parameter per
    // contract (10,000 in a select, 15,000 per 5,000-row insert) would be compiled by Kysely
    // and parsed and planned anew by PostgreSQL for every size, about a second of the request.
    const { rows } = await sql<{
      id: string;
      reference: string;
      status: string;
      aggregator_user_id: string;
    }>`select id, reference, status, aggregator_user_id from delivery_contracts
       where id = any(${contractIds}::text[])`.execute(this.db);
    const found = new Map<string, RunContract>(
      rows.map((r) => [
        r.id,
        { reference: r.reference, status: r.status, aggregatorUserId: r.aggregator_user_id },
      ]),
    );
    const behind = contractIds.filter((id) => !runnable(found.get(id)?.status));
    if (!behind.length) return found;
    const streams = await this.store.readStreams(behind.map(contractStreamId));
    for (const id of behind) {
      const state = streams
        .get(contractStreamId(id))!
        .reduce(
          (s, e) => contractStream.evolve(s, e as unknown as ContractEvent),
          contractStream.initialState(),
        );
      if (!state.exists) continue;
      found.set(id, {
        reference: state.reference,
        status: state.status!,
        aggregatorUserId: state.aggregatorUserId,
      });
    }
    return found;
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
        'i.input_advances',
        'i.pineapple_advances',
        'i.social_financing',
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
        breakdown:
          i.grower_net === null || i.input_advances === null
            ? null
            : {
                inputAdvances: Number(i.input_advances),
                pineappleAdvances: Number(i.pineapple_advances ?? 0),
                socialFinancing: Number(i.social_financing ?? 0),
                growerNet: Number(i.grower_net),
              },
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
  /**
   * Contracts claimed and run at once by one runner (default 256): claimed in one statement,
   * settled together (their commands share the pipeline's group commits) and recorded in one
   * statement each for the items, the payout jobs and the jobs' removal.
   */
  concurrency?: number;
  /** First retry delay after a transient failure (database away…), doubling up to 5 minutes. */
  baseDelayMs?: number;
  /**
   * Batches run side by side (default 2): while one batch waits for PostgreSQL (its claim, its
   * reads, its append, its records), the other decides — one batch at a time left the process
   * idle a third of the time. Each claims its own jobs (`FOR UPDATE SKIP LOCKED`); their
   * commands share the pipeline, which orders them on the aggregator's wallet.
   */
  lanes?: number;
}

type Job = Claimed<ContractJobColumns>;

/** An item's outcome as the runner records it. */
interface ItemOutcome {
  job: Job;
  status: 'COMPLETED' | 'FAILED';
  error: string | null;
  growerNet: number | null;
  recoveredAmount: number | null;
  breakdown: SettlementBreakdown | null;
  payoutId: string | null;
}

/**
 * Runs the contract jobs (`contract_jobs`, platform's LeasedJobs): claims a batch of due jobs
 * (one statement, one claim token for the batch, each job fenced by its id and that token),
 * settles their contracts together (`ContractSettler.settleMany`, one pipeline command per
 * contract, group-committed), queues the growers' payout jobs, records the items' outcomes
 * and removes the jobs — fenced by the claim, so a runner whose lease ran out and was taken
 * over changes nothing. A refusal (4xx: not delivered, a wallet missing…) fails the item
 * with its French message; anything else (the database away, or concurrent writers that kept
 * the contract's streams moving past the pipeline's retries: a 409 that says nothing of the
 * contract) releases the job for a later try. Whatever happens between the append and the job's removal, the next try finds the
 * contract COMPLETED and writes nothing new. One progress push per run and batch.
 */
/**
 * Whether a settlement's error is the contract's own, final refusal (a 4xx). A conflict with
 * concurrent writers (ConcurrencyError once the pipeline's retries are spent, StaleReadError)
 * is not: failing the item on it would drop a delivered contract's payment (found by the bank
 * test: a run acknowledged with 202, its job removed, its contract never settled).
 */
export function isRefusal(error: unknown): error is AppError {
  if (error instanceof ConcurrencyError || error instanceof StaleReadError) return false;
  return isAppError(error) && error.statusCode < 500;
}

export class ContractRunRunner implements LoopRunner {
  private readonly jobs: LeasedJobs<ContractJobColumns>;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly baseDelayMs: number;
  private readonly lanes: number;
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
    this.concurrency = options.concurrency ?? 256;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.lanes = Math.max(1, options.lanes ?? 2);
  }

  /** Wakes the loop running this runner (after a run was recorded). */
  wake(): void {
    this.onScheduled?.(new Date());
  }

  /**
   * Claims up to `limit` due jobs that no live lease holds, in the jobs' order, with one
   * fresh token: as LeasedJobs.claimOne, for many (`FOR UPDATE SKIP LOCKED`: concurrent
   * runners take different jobs).
   */
  private async claimBatch(limit: number): Promise<Job[]> {
    const token = randomUUID();
    const { rows } = await sql<Selectable<ContractJobColumns>>`
      update contract_jobs set
        locked_until = date_trunc('milliseconds', now() + ${`${Math.round(this.leaseMs)} milliseconds`}::interval),
        claim_token = ${token}
      where id in (
        select id from contract_jobs
        where run_at <= now() and (locked_until is null or locked_until < now())
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      returning *`.execute(this.db);
    return rows.map((row) => ({ ...row, claim: { id: row.id, token } }));
  }

  /**
   * Runs due jobs in `lanes` lanes, each claiming and settling batch after batch while it
   * finds full batches (at most 8 a call: the loop calls again until nothing is due).
   */
  async runDue(): Promise<number> {
    const lane = async () => {
      let ran = 0;
      for (let batch = 0; batch < 8; batch++) {
        const claimed = await this.runBatch();
        ran += claimed;
        if (claimed < this.concurrency) break;
      }
      return ran;
    };
    const counts = await Promise.all(Array.from({ length: this.lanes }, lane));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** One batch: claim up to `concurrency` due jobs, settle them, record them. */
  private async runBatch(): Promise<number> {
    const started = performance.now();
    const claimed = await this.claimBatch(this.concurrency);
    if (claimed.length === 0) return 0;
    const settling = performance.now();
    let results: SettleResult[];
    try {
      results = await this.settler.settleMany(claimed.map((job) => job.contract_id));
    } catch (error) {
      // The shared reads failed (the database away): every job is tried again later.
      await Promise.all(claimed.map((job) => this.retryLater(job, error)));
      return claimed.length;
    }
    const finished: ItemOutcome[] = [];
    const retried: Promise<void>[] = [];
    results.forEach((settled, i) => {
      const job = claimed[i]!;
      if ('outcome' in settled) {
        const { outcome } = settled;
        finished.push({
          job,
          status: 'COMPLETED',
          error: null,
          growerNet: outcome.growerNet,
          recoveredAmount: outcome.recoveredAmount,
          breakdown: outcome.breakdown,
          payoutId: outcome.payoutId,
        });
      } else if (isRefusal(settled.error)) {
        finished.push({
          job,
          status: 'FAILED',
          error: settled.error.message,
          growerNet: null,
          recoveredAmount: null,
          breakdown: null,
          payoutId: null,
        });
      } else {
        retried.push(this.retryLater(job, settled.error));
      }
    });
    await Promise.all(retried);
    const finishing = performance.now();
    if (finished.length) await this.finish(finished);
    this.logger.debug(
      {
        jobs: claimed.length,
        claimMs: Math.round(settling - started),
        settleMs: Math.round(finishing - settling),
        finishMs: Math.round(performance.now() - finishing),
      },
      'contract run batch',
    );
    return claimed.length;
  }

  /** Releases a job after a transient failure, to be tried again after a backoff. */
  private async retryLater(job: Job, error: unknown): Promise<void> {
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
  }

  /**
   * Queues the payout jobs, records the items' outcomes, removes the jobs (fenced: only
   * those this claim still holds), then pushes each run's progress once.
   */
  private async finish(finished: ItemOutcome[]): Promise<void> {
    const payouts = finished.flatMap((f) => (f.payoutId ? [f.payoutId] : []));
    await schedulePayoutJobs(this.db, payouts);
    const column = <T>(pick: (f: ItemOutcome) => T) => finished.map(pick);
    await persistently(() =>
      sql`
        update contract_run_items as i set
          status = v.status, error = v.error, grower_net = v.grower_net,
          recovered_amount = v.recovered_amount, input_advances = v.input_advances,
          pineapple_advances = v.pineapple_advances, social_financing = v.social_financing,
          payout_id = v.payout_id, updated_at = now()
        from unnest(
          ${column((f) => f.job.run_id)}::uuid[], ${column((f) => f.job.contract_id)}::text[],
          ${column((f) => f.status)}::text[], ${column((f) => f.error)}::text[],
          ${column((f) => f.growerNet)}::bigint[], ${column((f) => f.recoveredAmount)}::bigint[],
          ${column((f) => f.breakdown?.inputAdvances ?? null)}::bigint[],
          ${column((f) => f.breakdown?.pineappleAdvances ?? null)}::bigint[],
          ${column((f) => f.breakdown?.socialFinancing ?? null)}::bigint[],
          ${column((f) => f.payoutId)}::text[]
        ) as v(run_id, contract_id, status, error, grower_net, recovered_amount,
               input_advances, pineapple_advances, social_financing, payout_id)
        where i.run_id = v.run_id and i.contract_id = v.contract_id`.execute(this.db),
    );
    const token = finished[0]!.job.claim.token;
    const removed = await persistently(() =>
      sql<{ id: string }>`
        delete from contract_jobs
        where claim_token = ${token} and id = any(${column((f) => f.job.id)}::text[])
        returning id`.execute(this.db),
    );
    // Jobs another claim took over meanwhile: that claim reports them.
    const mine = new Set(removed.rows.map((r) => r.id));
    const reported = finished.filter((f) => mine.has(f.job.id));
    if (reported.length === 0) return;
    const runIds = [...new Set(reported.map((f) => f.job.run_id))];
    const runs = await narrowDb<RunTables>()(this.db)
      .selectFrom('contract_runs as r')
      .select((eb) => [
        'r.id',
        'r.aggregator_user_id',
        'r.total',
        eb
          .selectFrom('contract_run_items as i')
          .select((e) => e.fn.countAll<string>().as('n'))
          .whereRef('i.run_id', '=', 'r.id')
          .where('i.status', '!=', 'PENDING')
          .as('done'),
      ])
      .where('r.id', 'in', runIds)
      .execute();
    const messages: PushMessage[] = runs.map((run) => {
      const last = reported.filter((f) => f.job.run_id === run.id).at(-1)!;
      return contractsPush({
        type: 'contracts.run',
        userIds: [run.aggregator_user_id],
        data: {
          runId: run.id,
          contractId: last.job.contract_id,
          status: last.status,
          done: Number(run.done ?? 0),
          total: run.total,
        },
      });
    });
    try {
      await this.publish(messages);
    } catch (err) {
      this.logger.warn({ err }, 'contract run progress push failed');
    }
  }
}
