import { sql, type Kysely } from 'kysely';

/**
 * The supply recovery sweep (wallet/jobs/job-runner.ts `recoverSupplies`) looks for mobile-money
 * and card supplies still without their outcome, as the payout sweep does for withdrawals: a
 * partial index on SupplyInitiated by position, so an incremental sweep reads only the supplies
 * appended since the previous one and the full sweep only the supplies, never the whole log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index events_supply_initiated_idx on events (position)
    where type = 'SupplyInitiated'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_supply_initiated_idx`.execute(db);
}
