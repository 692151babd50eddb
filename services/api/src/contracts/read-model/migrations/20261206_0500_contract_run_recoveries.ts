import { sql, type Kysely } from 'kysely';

/**
 * A run item's recoveries by family: the input and pineapple advances the aggregator kept,
 * the social financings paid to the SFDs (null until the item is COMPLETED), beside the
 * grower's net, so a run's result says where each contract's money went.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table contract_run_items
    add column input_advances bigint,
    add column pineapple_advances bigint,
    add column social_financing bigint`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table contract_run_items
    drop column if exists input_advances,
    drop column if exists pineapple_advances,
    drop column if exists social_financing`.execute(db);
}
