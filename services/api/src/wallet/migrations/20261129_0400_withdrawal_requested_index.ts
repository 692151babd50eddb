import { sql, type Kysely } from 'kysely';

/**
 * The payout recovery sweep (wallet/jobs/job-runner.ts `recover`) looks for withdrawals still
 * without their outcome. Without an index it read the whole `events` table every minute in
 * every API and worker process (a sequential scan of a million rows at a million events). A
 * partial index on WithdrawalRequested by position: a sweep reads only the withdrawals
 * appended since the previous one, and the full sweep (at start, then hourly) only the
 * withdrawals. Built in the migration's transaction (a short write lock on `events`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index events_withdrawal_requested_idx on events (position)
    where type = 'WithdrawalRequested'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_withdrawal_requested_idx`.execute(db);
}
