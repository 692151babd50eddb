import { sql, type Kysely } from 'kysely';

export type JobKind = 'PAYOUT' | 'VERIFY_SUPPLY';

export interface WalletJob {
  id: string;
  kind: JobKind;
  payload: Record<string, unknown>;
  attempts: number;
  /**
   * The lease this claim holds (its `locked_until`, at millisecond precision): writes that
   * pass it only land while the claim is still this one, so a runner whose lease expired
   * and was taken over can no longer change the job.
   */
  lease?: Date;
}

/**
 * The `wallet_jobs` table: durable background work. A job is claimed with a lease
 * (`locked_until`) so that two processes never run it at once; a finished job is deleted,
 * a job to retry gets its next run time.
 */
export class JobStore {
  constructor(private readonly db: Kysely<any>) {}

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
        run_at: job.runAt ?? sql`date_trunc('milliseconds', now())`,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** Claims up to `limit` due jobs (run_at ≤ `now`, not leased) for `leaseMs`. */
  async claimDue(
    now: Date,
    limit: number,
    leaseMs: number,
    exclude: string[] = [],
  ): Promise<WalletJob[]> {
    const result = await sql<{
      id: string;
      kind: JobKind;
      payload: any;
      attempts: number;
      locked_until: Date;
    }>`
      update wallet_jobs
      set locked_until = date_trunc('milliseconds', now() + ${`${leaseMs} milliseconds`}::interval)
      where id in (
        select id from wallet_jobs
        where run_at <= ${now} and (locked_until is null or locked_until < now())
          and not (id = any(${exclude}::text[]))
        order by run_at limit ${limit}
        for update skip locked
      )
      returning id, kind, payload, attempts, locked_until`.execute(this.db);
    return result.rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
      attempts: r.attempts,
      lease: new Date(r.locked_until),
    }));
  }

  async done(id: string): Promise<void> {
    await this.db.deleteFrom('wallet_jobs').where('id', '=', id).execute();
  }

  /**
   * Replaces a job's payload (e.g. a payout's provider id, known before money moves); with a
   * `lease`, only while that claim still holds the job. False when nothing was written.
   */
  async setPayload(id: string, payload: object, lease?: Date): Promise<boolean> {
    let update = this.db
      .updateTable('wallet_jobs')
      .set({ payload: JSON.stringify(payload) })
      .where('id', '=', id);
    if (lease) update = update.where('locked_until', '=', lease);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Schedules the job's next attempt; with a `lease`, only while that claim holds it. */
  async retry(
    id: string,
    attempts: number,
    delayMs: number,
    error: string,
    lease?: Date,
  ): Promise<void> {
    await this.db
      .updateTable('wallet_jobs')
      .set({
        attempts,
        run_at: sql`date_trunc('milliseconds', now()) + ${`${Math.round(delayMs)} milliseconds`}::interval`,
        locked_until: null,
        last_error: error.slice(0, 500),
      })
      .where('id', '=', id)
      .$if(lease !== undefined, (qb) => qb.where('locked_until', '=', lease!))
      .execute();
  }

  /** The earliest run time of a job not leased, for the in-process timer. */
  async nextRunAt(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('wallet_jobs')
      .select(sql<Date>`min(run_at)`.as('next'))
      .executeTakeFirst();
    return row?.next ? new Date(row.next) : null;
  }

  list(): Promise<{ id: string; kind: string; attempts: number; last_error: string | null }[]> {
    return this.db
      .selectFrom('wallet_jobs')
      .select(['id', 'kind', 'attempts', 'last_error'])
      .orderBy('id')
      .execute() as any;
  }
}
