import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

export type ExportStatus = 'PENDING' | 'RUNNING' | 'READY' | 'FAILED';

export interface ExportJob {
  id: string;
  userId: string;
  walletId: string;
  status: ExportStatus;
  done: number;
  total: number;
  /** Relative to DATA_DIR, once READY. */
  file: string | null;
  error: string | null;
  attempts: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A job claimed by a runner: `attempt` fences every later write of that runner. */
export interface ClaimedExport extends ExportJob {
  attempt: number;
}

const toJob = (r: Record<string, any>): ExportJob => ({
  id: r.id,
  userId: r.user_id,
  walletId: r.wallet_id,
  status: r.status,
  done: r.done,
  total: r.total,
  file: r.file ?? null,
  error: r.error ?? null,
  attempts: r.attempts,
  createdAt: new Date(r.created_at),
  finishedAt: r.finished_at ? new Date(r.finished_at) : null,
});

const lease = (ms: number) => sql`now() + ${`${Math.round(ms)} milliseconds`}::interval`;

/**
 * The `wallet_exports` table. Claiming is a leased `UPDATE … FOR UPDATE SKIP LOCKED`, so
 * any number of processes share the work; every write of a runner names the attempt it
 * claimed, so a runner that lost its lease (paused, partitioned) changes nothing.
 */
export class ExportStore {
  constructor(private readonly db: Kysely<any>) {}

  async create(job: { userId: string; walletId: string; total: number }): Promise<ExportJob> {
    const row = await this.db
      .insertInto('wallet_exports')
      .values({
        id: randomUUID(),
        user_id: job.userId,
        wallet_id: job.walletId,
        status: 'PENDING',
        total: job.total,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toJob(row);
  }

  async get(id: string): Promise<ExportJob | undefined> {
    const row = await this.db
      .selectFrom('wallet_exports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toJob(row) : undefined;
  }

  /**
   * Claims the oldest job that is PENDING, or RUNNING with a lease run out (its runner
   * died), unless it was already tried `maxAttempts` times (then it is FAILED).
   */
  async claim(leaseMs: number, maxAttempts: number): Promise<ClaimedExport | undefined> {
    await this.db
      .updateTable('wallet_exports')
      .set({
        status: 'FAILED',
        error: 'abandoned after repeated interruptions',
        finished_at: sql`now()`,
        locked_until: null,
      })
      .where('status', '=', 'RUNNING')
      .where('locked_until', '<', sql<Date>`now()`)
      .where('attempts', '>=', maxAttempts)
      .execute();
    const { rows } = await sql<Record<string, any>>`
      update wallet_exports set status = 'RUNNING', attempts = attempts + 1, done = 0,
        locked_until = ${lease(leaseMs)}, started_at = now()
      where id = (
        select id from wallet_exports
        where status = 'PENDING' or (status = 'RUNNING' and locked_until < now())
        order by created_at limit 1
        for update skip locked
      )
      returning *`.execute(this.db);
    const row = rows[0];
    return row ? { ...toJob(row), attempt: row.attempts } : undefined;
  }

  /** Progress and lease renewal; false when this attempt lost the job. */
  async heartbeat(job: ClaimedExport, done: number, leaseMs: number): Promise<boolean> {
    const r = await this.db
      .updateTable('wallet_exports')
      .set({ done, locked_until: lease(leaseMs) })
      .where('id', '=', job.id)
      .where('attempts', '=', job.attempt)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** READY with its file; false when this attempt had lost the job. */
  async finish(job: ClaimedExport, done: number, file: string): Promise<boolean> {
    const r = await this.db
      .updateTable('wallet_exports')
      .set({ status: 'READY', done, file, locked_until: null, finished_at: sql`now()` })
      .where('id', '=', job.id)
      .where('attempts', '=', job.attempt)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async fail(job: ClaimedExport, error: string): Promise<boolean> {
    const r = await this.db
      .updateTable('wallet_exports')
      .set({
        status: 'FAILED',
        error: error.slice(0, 500),
        locked_until: null,
        finished_at: sql`now()`,
      })
      .where('id', '=', job.id)
      .where('attempts', '=', job.attempt)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Whether a job waits for a runner (PENDING, or RUNNING with its lease run out). */
  async anyClaimable(): Promise<boolean> {
    const row = await this.db
      .selectFrom('wallet_exports')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('status', '=', 'PENDING'),
          eb.and([eb('status', '=', 'RUNNING'), eb('locked_until', '<', sql<Date>`now()`)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the jobs created before `before`; returns their ids (their files go too). */
  async expire(before: Date): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('wallet_exports')
      .where('created_at', '<', before)
      .where('status', 'in', ['READY', 'FAILED', 'PENDING'])
      .returning('id')
      .execute();
    return rows.map((r) => r.id as string);
  }

  /** Ids of every job still known (files of other ids are orphans). */
  async ids(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('wallet_exports').select('id').execute();
    return new Set(rows.map((r) => r.id as string));
  }
}
