import { randomUUID } from 'node:crypto';
import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import {
  LeasedJobs,
  narrowDb,
  type Claim,
  type CreatedAt,
  type LeaseColumns,
} from '@filiere/platform';

export type ExportStatus = 'PENDING' | 'RUNNING' | 'READY' | 'FAILED';

type IntDefault = ColumnType<number, number | undefined, number>;
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** `wallet_exports` (migrations 0401 and 0402), as platform's leased job store sees it. */
export interface WalletExportColumns extends LeaseColumns {
  user_id: string;
  wallet_id: string;
  status: ExportStatus;
  done: IntDefault;
  total: number;
  /** Relative to DATA_DIR, once READY. */
  file: NullableText;
  error: NullableText;
  /** How many times a runner claimed the job (a job claimed `maxAttempts` times fails). */
  attempts: IntDefault;
  created_at: CreatedAt;
  started_at: NullableTime;
  finished_at: NullableTime;
}

/** The wallet's table of background exports. */
export interface WalletExportsTables {
  wallet_exports: WalletExportColumns;
}

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

/** A job claimed by a runner: its `claim` fences every later write of that runner. */
export interface ClaimedExport extends ExportJob {
  /** This claim's number (the part file is named after it). */
  attempt: number;
  claim: Claim;
}

const toJob = (r: Selectable<WalletExportColumns>): ExportJob => ({
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

/**
 * The `wallet_exports` table on platform's leased job store. Claiming is a leased
 * `UPDATE … FOR UPDATE SKIP LOCKED`, so any number of processes share the work; every
 * write of a runner names its claim's token, so a runner that lost its lease (paused,
 * partitioned) and was taken over changes nothing.
 */
export class ExportStore<DB extends WalletExportsTables = WalletExportsTables> {
  private readonly db: Kysely<WalletExportsTables>;
  private readonly jobs: LeasedJobs<WalletExportColumns>;

  constructor(db: Kysely<DB>) {
    this.db = narrowDb<WalletExportsTables>()(db);
    this.jobs = new LeasedJobs<WalletExportColumns>(this.db, {
      table: 'wallet_exports',
      order: sql`created_at`,
    });
  }

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
   * died), unless it was already claimed `maxAttempts` times (then it is FAILED).
   */
  async claim(leaseMs: number, maxAttempts: number): Promise<ClaimedExport | undefined> {
    await this.db
      .updateTable('wallet_exports')
      .set({
        status: 'FAILED',
        error: 'abandoned after repeated interruptions',
        finished_at: sql<Date>`now()`,
        locked_until: null,
        claim_token: null,
      })
      .where('status', '=', 'RUNNING')
      .where('locked_until', '<', sql<Date>`now()`)
      .where('attempts', '>=', maxAttempts)
      .execute();
    const row = await this.jobs.claimOne(leaseMs, {
      where: sql`status in ('PENDING', 'RUNNING') and attempts < ${maxAttempts}`,
      set: {
        status: 'RUNNING',
        attempts: sql`attempts + 1`,
        done: 0,
        started_at: sql`now()`,
      },
    });
    return row ? { ...toJob(row), attempt: row.attempts, claim: row.claim } : undefined;
  }

  /** Progress and lease renewal; false when this claim lost the job. */
  heartbeat(job: ClaimedExport, done: number, leaseMs: number): Promise<boolean> {
    return this.jobs.renew(job.claim, leaseMs, { done });
  }

  /** READY with its file; false when this claim had lost the job. */
  finish(job: ClaimedExport, done: number, file: string): Promise<boolean> {
    return this.jobs.release(job.claim, {
      status: 'READY',
      done,
      file,
      finished_at: sql`now()`,
    });
  }

  /** FAILED for good; false when this claim had lost the job. */
  fail(job: ClaimedExport, error: string): Promise<boolean> {
    return this.jobs.release(job.claim, {
      status: 'FAILED',
      error: error.slice(0, 500),
      finished_at: sql`now()`,
    });
  }

  /** PENDING again, for another claim (its error kept); false when this claim lost it. */
  retry(job: ClaimedExport, error: string): Promise<boolean> {
    return this.jobs.release(job.claim, {
      status: 'PENDING',
      done: 0,
      error: error.slice(0, 500),
    });
  }

  /** Deletes the jobs created before `before`; returns their ids (their files go too). */
  async expire(before: Date): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('wallet_exports')
      .where('created_at', '<', before)
      .where('status', 'in', ['READY', 'FAILED', 'PENDING'])
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Ids of every job still known (files of other ids are orphans). */
  async ids(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('wallet_exports').select('id').execute();
    return new Set(rows.map((r) => r.id));
  }
}
