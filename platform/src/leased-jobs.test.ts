import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type ColumnType, type Kysely } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LeasedJobs, persistently, type LeaseColumns } from './leased-jobs.js';
import { narrowDb } from './db.js';
import { useTestDatabase } from './testing/database.js';

/** A leased job table of this test's own: a note and a counter beside the lease columns. */
interface TestJobColumns extends LeaseColumns {
  run_at: ColumnType<Date, Date | string | undefined, Date | string>;
  note: ColumnType<string | null, string | null | undefined, string | null>;
  claims: ColumnType<number, number | undefined, number>;
}
interface TestTables {
  test_leased_jobs: TestJobColumns;
}

const t = useTestDatabase<TestTables>();
let db: Kysely<TestTables>;
let jobs: LeasedJobs<TestJobColumns>;

const row = (id: string) =>
  db.selectFrom('test_leased_jobs').selectAll().where('id', '=', id).executeTakeFirst();
const add = (id: string, secondsAgo: number) =>
  db
    .insertInto('test_leased_jobs')
    .values({ id, run_at: sql<Date>`now() - ${`${secondsAgo} seconds`}::interval` })
    .execute();

beforeAll(async () => {
  db = narrowDb<TestTables>()(t.db);
  await sql`create table test_leased_jobs (
    id text primary key, locked_until timestamptz, claim_token uuid,
    run_at timestamptz not null default now(), note text, claims integer not null default 0
  )`.execute(db);
  jobs = new LeasedJobs<TestJobColumns>(db, { table: 'test_leased_jobs', order: sql`run_at` });
});
beforeEach(async () => {
  await db.deleteFrom('test_leased_jobs').execute();
});

describe('one leased job store for every context', () => {
  it('claims the due jobs in order, one at a time, with what the claim sets', async () => {
    await add('b', 1);
    await add('a', 2);
    await add('later', -60);
    const due = sql`run_at <= now()`;
    const set = { claims: sql`claims + 1` };
    const first = (await jobs.claimOne(60_000, { where: due, set }))!;
    expect(first).toMatchObject({ id: 'a', claims: 1, claim: { id: 'a' } });
    expect((await row('a'))!.claim_token).toBe(first.claim.token);
    const second = (await jobs.claimOne(60_000, { where: due, set }))!;
    expect(second.id).toBe('b');
    expect(second.claim.token).not.toBe(first.claim.token);
    // A leased job is nobody else's until its lease runs out; 'later' is not due.
    expect(await jobs.claimOne(60_000, { where: due, set })).toBeUndefined();
  });

  it('runners claiming at once never take the same job', async () => {
    for (let i = 0; i < 6; i++) await add(`c${i}`, 10 - i);
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => jobs.claimOne(60_000, { set: { claims: sql`claims + 1` } })),
    );
    const ids = claims.flatMap((c) => (c ? [c.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const rows = await db.selectFrom('test_leased_jobs').select('claims').execute();
    expect(rows.every((r) => r.claims <= 1)).toBe(true);
  });

  it('a runner whose lease ran out and was taken over writes nothing any more', async () => {
    await add('j', 1);
    const stale = (await jobs.claimOne(50))!;
    await sleep(80);
    const fresh = (await jobs.claimOne(60_000, { set: { claims: sql`claims + 1` } }))!;
    expect(fresh.id).toBe('j');
    expect(await jobs.write(stale.claim, { note: 'stale' })).toBe(false);
    expect(await jobs.renew(stale.claim, 60_000, { note: 'stale' })).toBe(false);
    expect(await jobs.release(stale.claim, { note: 'stale' })).toBe(false);
    expect(await jobs.remove(stale.claim)).toBe(false);
    expect(await row('j')).toMatchObject({ note: null, claim_token: fresh.claim.token });
    // The claim that holds the job writes, and after its release nobody's old claim does.
    expect(await jobs.write(fresh.claim, { note: 'fresh' })).toBe(true);
    expect(await jobs.release(fresh.claim, { note: 'done' })).toBe(true);
    expect(await row('j')).toMatchObject({ note: 'done', locked_until: null, claim_token: null });
    expect(await jobs.write(fresh.claim, { note: 'again' })).toBe(false);
    expect(await jobs.remove(fresh.claim)).toBe(false);
    expect(await row('j')).toBeDefined();
  });

  it('a lease run out that nobody took still lets its runner finish; renewing keeps others off', async () => {
    await add('k', 1);
    const slow = (await jobs.claimOne(50))!;
    await sleep(80);
    expect(await jobs.renew(slow.claim, 60_000)).toBe(true);
    expect(await jobs.claimOne(60_000)).toBeUndefined();
    expect(await jobs.remove(slow.claim)).toBe(true);
    expect(await row('k')).toBeUndefined();
  });

  it('the same lease time is no fence: two claims in one millisecond still differ', async () => {
    // wallet_jobs fenced by `locked_until`: a claim taken over at the same millisecond lease
    // (a lease of 0 ms, clocks, a truncated value) would have let the old runner write.
    await add('m', 1);
    const first = (await jobs.claimOne(0))!;
    await sql`update test_leased_jobs set locked_until = now() - interval '1 second'`.execute(db);
    const second = (await jobs.claimOne(0))!;
    await sql`update test_leased_jobs set locked_until = ${first.locked_until}`.execute(db);
    expect(await jobs.write(first.claim, { note: 'first' })).toBe(false);
    expect(await jobs.write(second.claim, { note: 'second' })).toBe(true);
  });
});

describe('persistently', () => {
  it('tries a write again while it fails, and returns what it returned', async () => {
    let calls = 0;
    const value = await persistently(
      async () => {
        if (++calls < 3) throw new Error('Connection terminated unexpectedly');
        return 'written';
      },
      { pauseMs: 1 },
    );
    expect({ calls, value }).toEqual({ calls: 3, value: 'written' });
  });

  it('gives up after its tries with the last error', async () => {
    let calls = 0;
    await expect(
      persistently(
        async () => {
          calls++;
          throw new Error(`down ${calls}`);
        },
        { tries: 4, pauseMs: 1 },
      ),
    ).rejects.toThrow('down 4');
    expect(calls).toBe(4);
  });

  it('carries a fenced write through a database that drops its connections', async () => {
    await add('p', 1);
    const job = (await jobs.claimOne(60_000))!;
    // Every connection of this database is cut (as a PostgreSQL restart does) while the
    // runner records its outcome; the write is tried again on a new connection.
    let cut = false;
    const written = await persistently(
      async () => {
        if (!cut) {
          cut = true;
          await sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`.execute(db);
          await sql`select pg_terminate_backend(pg_backend_pid())`.execute(db);
        }
        return jobs.release(job.claim, { note: 'recorded' });
      },
      { pauseMs: 20 },
    );
    expect(written).toBe(true);
    expect(await row('p')).toMatchObject({ note: 'recorded', claim_token: null });
  });
});
