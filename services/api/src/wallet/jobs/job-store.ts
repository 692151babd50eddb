import { randomUUID } from 'node:crypto';
import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import {
  LeasedJobs,
  narrowDb,
  type Claim,
  type CreatedAt,
  type Json,
  type LeaseColumns,
} from '@filiere/platform';

export type JobKind = 'PAYOUT' | 'VERIFY_SUPPLY';

/** The name of the wallet's job module (payouts and supply checks). */
export const WALLET_JOBS = 'wallet-jobs';

/** `wallet_jobs` (migrations 0400 and 0402), as platform's leased job store sees it. */
export interface WalletJobColumns extends LeaseColumns {
  kind: JobKind;
  payload: Json<Record<string, unknown> | string>;
  /** How many runs failed (the backoff's exponent), not how many claims. */
  attempts: ColumnType<number, number | undefined, number>;
  run_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

/** The wallet's table of background jobs (payouts, supply checks). */
export interface WalletJobsTables {
  wallet_jobs: WalletJobColumns;
}

export interface WalletJob {
  id: string;
  kind: JobKind;
  payload: Record<string, unknown>;
  attempts: number;
  /**
   * The claim running this job: writes that name it only land while the claim is still
   * this one, so a runner whose lease ran out and was taken over can no longer change it.
   */
  claim: Claim;
}

const parsed = (payload: Record<string, unknown> | string): Record<string, unknown> =>
  typeof payload === 'string' ? (JSON.parse(payload) as Record<string, unknown>) : payload;

/**
 * The `wallet_jobs` table: durable background work on platform's leased job store. A job
 * is claimed with a lease and a claim token so that two processes never run it at once; a
 * finished job is deleted, a job to retry gets its next run time — both only by the claim
 * that ran it.
 */
export class JobStore<DB extends WalletJobsTables = WalletJobsTables> {
  private readonly db: Kysely<WalletJobsTables>;
  private readonly jobs: LeasedJobs<WalletJobColumns>;

  constructor(db: Kysely<DB>) {
    this.db = narrowDb<WalletJobsTables>()(db);
    this.jobs = new LeasedJobs<WalletJobColumns>(this.db, {
      table: 'wallet_jobs',
      order: sql`run_at`,
    });
  }

  /** Adds a job unless one with this id exists; returns whether it was added. */
  async add(job: { id: string; kind: JobKind; payload: object; runAt?: Date; attempts?: number }) {
    const rows = await this.db
      .insertInto('wallet_jobs')
      .values({
        id: job.id,
        kind: job.kind,
        payload: JSON.stringify(job.payload),
        attempts: job.attempts ?? 0,
        // Millisecond precision, as JavaScript's clock that claimDue compares with:
        // a microsecond run_at could look 'not yet due' within the same millisecond.
        run_at: job.runAt ?? sql<Date>`date_trunc('milliseconds', now())`,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /**
   * Adds the check of a supply (`verify:<reference>`), or, when it has one, gives it what is
   * new: the transaction id the widget reported (kept with the abandon time already stored)
   * and the earlier of the two run times, so a payment just reported is checked at once.
   */
  async addSupplyCheck(check: {
    reference: string;
    transactionId?: string;
    expiresAt: Date;
    runAt: Date;
    attempts?: number;
  }): Promise<void> {
    const payload = {
      reference: check.reference,
      expiresAt: check.expiresAt.toISOString(),
      ...(check.transactionId ? { transactionId: check.transactionId } : {}),
    };
    await sql`
      insert into wallet_jobs (id, kind, payload, attempts, run_at)
      values (${`verify:${check.reference}`}, 'VERIFY_SUPPLY', ${JSON.stringify(payload)}::jsonb,
              ${check.attempts ?? 0}, date_trunc('milliseconds', ${check.runAt}::timestamptz))
      on conflict (id) do update set
        payload = wallet_jobs.payload || (excluded.payload - 'expiresAt'),
        run_at = least(wallet_jobs.run_at, excluded.run_at)`.execute(this.db);
  }

  /**
   * Adds the check of each supply that has none (recovery), in one insert per 5,000; returns
   * how many were added.
   */
  async addSupplyChecks(checks: { reference: string; expiresAt: Date }[]): Promise<number> {
    let added = 0;
    for (let from = 0; from < checks.length; from += 5_000) {
      const rows = await this.db
        .insertInto('wallet_jobs')
        .values(
          checks.slice(from, from + 5_000).map((check) => ({
            id: `verify:${check.reference}`,
            kind: 'VERIFY_SUPPLY' as const,
            payload: JSON.stringify({
              reference: check.reference,
              expiresAt: check.expiresAt.toISOString(),
            }),
            attempts: 0,
            run_at: sql<Date>`date_trunc('milliseconds', now())`,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      added += rows.length;
    }
    return added;
  }

  /**
   * Adds the payout job of each withdrawal that has none (`payout:<withdrawalId>`), in one
   * insert per 5,000; returns how many were added.
   */
  async addPayouts(withdrawalIds: string[]): Promise<number> {
    let added = 0;
    for (let from = 0; from < withdrawalIds.length; from += 5_000) {
      const rows = await this.db
        .insertInto('wallet_jobs')
        .values(
          withdrawalIds.slice(from, from + 5_000).map((withdrawalId) => ({
            id: `payout:${withdrawalId}`,
            kind: 'PAYOUT' as const,
            payload: JSON.stringify({ withdrawalId }),
            attempts: 0,
            run_at: sql<Date>`date_trunc('milliseconds', now())`,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      added += rows.length;
    }
    return added;
  }

  /**
   * Claims up to `limit` jobs due at `now` (run_at ≤ `now`, no live lease), earliest first,
   * except those of `exclude`, in one statement with one fresh claim token (as LeasedJobs'
   * claimOne, for many: `FOR UPDATE SKIP LOCKED`, so concurrent runners take different jobs).
   * Every later write names the job's id and that token, so each job stays fenced on its own.
   */
  async claimDue(
    now: Date,
    leaseMs: number,
    exclude: string[] = [],
    limit = 1,
  ): Promise<WalletJob[]> {
    const token = randomUUID();
    const { rows } = await sql<Selectable<WalletJobColumns>>`
      with claimed as (update wallet_jobs set
        locked_until = date_trunc('milliseconds', now() + ${`${Math.round(leaseMs)} milliseconds`}::interval),
        claim_token = ${token}
      where id in (
        select id from wallet_jobs
        where run_at <= ${now} and not (id = any(${exclude}::text[]))
          and (locked_until is null or locked_until < now())
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      returning *)
      select * from claimed order by run_at, id`.execute(this.db);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      payload: parsed(row.payload),
      attempts: row.attempts,
      claim: { id: row.id, token },
    }));
  }

  /** Deletes finished jobs, each only while `claim` (its own) still holds it; the ids deleted. */
  async doneMany(claims: Claim[]): Promise<string[]> {
    if (claims.length === 0) return [];
    const { rows } = await sql<{ id: string }>`
      delete from wallet_jobs as j
      using unnest(${claims.map((c) => c.id)}::text[], ${claims.map((c) => c.token)}::uuid[])
        as c(id, token)
      where j.id = c.id and j.claim_token = c.token
      returning j.id`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** Deletes a finished job; false when `claim` no longer holds it. */
  done(claim: Claim): Promise<boolean> {
    return this.jobs.remove(claim);
  }

  /**
   * Replaces a job's payload (e.g. a payout's provider id, known before money moves), only
   * while `claim` still holds the job. False when nothing was written.
   */
  setPayload(claim: Claim, payload: object): Promise<boolean> {
    return this.jobs.write(claim, { payload: JSON.stringify(payload) });
  }

  /** Schedules the job's next attempt and lets it go, only while `claim` holds it. */
  retry(claim: Claim, attempts: number, delayMs: number, error: string): Promise<boolean> {
    return this.jobs.release(claim, {
      attempts,
      run_at: sql`date_trunc('milliseconds', now()) + ${`${Math.round(delayMs)} milliseconds`}::interval`,
      last_error: error.slice(0, 500),
    });
  }

  list(): Promise<{ id: string; kind: JobKind; attempts: number; last_error: string | null }[]> {
    return this.db
      .selectFrom('wallet_jobs')
      .select(['id', 'kind', 'attempts', 'last_error'])
      .orderBy('id')
      .execute();
  }
}
