import { sql, type Kysely } from 'kysely';

/**
 * dashboard_aggregator_growers by grower: the `reporting-dashboard` projector reads, for every
 * batch with debt events, the aggregators already linked to the debts' growers (the rollup's
 * AGGREGATOR scopes). Its primary key starts with the aggregator, so each such batch scanned
 * the whole table (3.7 of a 100-event batch's 4.6 ms of reads at 10,000 links, and it grows
 * with every aggregator–grower pair). No row changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index dashboard_aggregator_growers_by_grower
    on dashboard_aggregator_growers (grower_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists dashboard_aggregator_growers_by_grower`.execute(db);
}
