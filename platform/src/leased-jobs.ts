import { randomUUID } from 'node:crypto';
import {
  sql,
  type ColumnType,
  type QueryExecutorProvider,
  type RawBuilder,
  type Selectable,
  type Updateable,
} from 'kysely';

/**
 * The columns every leased job table has beside its own (its key is a text or uuid `id`).
 * A job is held by at most one claim at a time: `locked_until` says until when, and
 * `claim_token` (a fresh uuid per claim) is what the claim's runner names on every write.
 */
export interface LeaseColumns {
  id: string;
  /** When the current claim's lease runs out; null while no runner holds the job. */
  locked_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The current claim's token; null while no runner holds the job. */
  claim_token: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A runner's hold on one job: every write of that runner names this token. */
export interface Claim {
  readonly id: string;
  readonly token: string;
}

/** A claimed job: its row as the claim left it, and the claim that fences its writes. */
export type Claimed<Columns> = Selectable<Columns> & { readonly claim: Claim };

/** Columns a write sets: values (bound as parameters) or SQL (e.g. sql`attempts + 1`). */
export type JobWrite<Columns> = {
  [K in keyof Updateable<Columns>]?: Updateable<Columns>[K] | RawBuilder<unknown>;
};

export interface LeasedJobsOptions {
  /** The table's name. */
  table: string;
  /** The order in which claimable jobs are taken, e.g. sql`run_at`. */
  order: RawBuilder<unknown>;
}

const leaseUntil = (ms: number) =>
  sql`date_trunc('milliseconds', now() + ${`${Math.round(ms)} milliseconds`}::interval)`;

/**
 * One table of durable background work shared by any number of processes. A runner claims
 * one job (`UPDATE … FOR UPDATE SKIP LOCKED`: concurrent runners take different jobs) with a
 * lease, and every later write of that runner names the claim's token: once the lease ran
 * out and another runner claimed the job (a new token), the first runner's writes land
 * nowhere and return false. A lease that ran out without a new claim still lets its runner
 * finish (nobody else ran the job). The context keeps its own columns, statuses and queries
 * (typed, with its own Kysely); this class only claims, renews, writes and releases.
 */
export class LeasedJobs<Columns extends LeaseColumns> {
  constructor(
    private readonly db: QueryExecutorProvider,
    private readonly options: LeasedJobsOptions,
  ) {}

  private get table() {
    return sql.table(this.options.table);
  }

  private assignments(set: JobWrite<Columns>): RawBuilder<unknown>[] {
    return Object.entries(set)
      .filter(([, value]) => value !== undefined)
      .map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  }

  /**
   * Claims the first job (in the table's order) that `where` admits and no live lease holds,
   * for `leaseMs`; `set` adds what a claim writes besides its lease and token (a status, an
   * attempt count). Undefined when no job is claimable.
   */
  async claimOne(
    leaseMs: number,
    options: { where?: RawBuilder<unknown>; set?: JobWrite<Columns> } = {},
  ): Promise<Claimed<Columns> | undefined> {
    const token = randomUUID();
    const set = [
      sql`locked_until = ${leaseUntil(leaseMs)}`,
      sql`claim_token = ${token}`,
      ...this.assignments(options.set ?? {}),
    ];
    const { rows } = await sql<Selectable<Columns> & { id: string }>`
      update ${this.table} set ${sql.join(set)}
      where id = (
        select id from ${this.table}
        where (${options.where ?? sql`true`})
          and (locked_until is null or locked_until < now())
        order by ${this.options.order}
        limit 1
        for update skip locked
      )
      returning *`.execute(this.db);
    const row = rows[0];
    return row ? { ...row, claim: { id: row.id, token } } : undefined;
  }

  /** Writes `set` while `claim` still holds the job; false when it no longer does. */
  async write(claim: Claim, set: JobWrite<Columns>): Promise<boolean> {
    const assignments = this.assignments(set);
    if (assignments.length === 0) throw new Error('a job write must set a column');
    const result = await sql`
      update ${this.table} set ${sql.join(assignments)}
      where id = ${claim.id} and claim_token = ${claim.token}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Extends the lease by `leaseMs` from now (with `set`, e.g. progress); fenced as `write`. */
  renew(claim: Claim, leaseMs: number, set: JobWrite<Columns> = {}): Promise<boolean> {
    return this.write(claim, {
      ...set,
      locked_until: leaseUntil(leaseMs),
    } as JobWrite<Columns>);
  }

  /** Lets the job go (no lease, no token) with `set` (its outcome or next run); fenced. */
  release(claim: Claim, set: JobWrite<Columns> = {}): Promise<boolean> {
    return this.write(claim, {
      ...set,
      locked_until: null,
      claim_token: null,
    } as JobWrite<Columns>);
  }

  /** Deletes the job while `claim` still holds it; false when it no longer does. */
  async remove(claim: Claim): Promise<boolean> {
    const result = await sql`
      delete from ${this.table}
      where id = ${claim.id} and claim_token = ${claim.token}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }
}

export interface PersistentlyOptions {
  /** Tries in all (default 20: about 17 s of a database away). */
  tries?: number;
  /** Pause after the n-th failed try: `pauseMs × min(n, 4)` (default 250 ms). */
  pauseMs?: number;
}

/**
 * Runs a job-table write, trying again while the database is away (a restart): a runner
 * that cannot record its job's outcome would leave the job leased, hence untouched, for the
 * rest of its lease. Only for writes that may run twice (fenced writes are: a second try
 * after a first that landed finds no claim and returns false). Rethrows the last error.
 */
export async function persistently<T>(
  write: () => Promise<T>,
  options: PersistentlyOptions = {},
): Promise<T> {
  const tries = options.tries ?? 20;
  const pauseMs = options.pauseMs ?? 250;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs * Math.min(attempt, 4)));
    }
  }
}
