import { sql, type Kysely } from 'kysely';

/**
 * `grower_sms_opt_outs`: a grower's choice to receive no optional SMS (the monthly summary,
 * plain notices; codes and receipts are always sent). One row per grower who ever chose; the
 * last choice wins. `source`: STAFF (`changed_by` is the staff member) or SMS (his STOP).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('grower_sms_opt_outs')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('opted_out', 'boolean', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('STAFF', 'SMS')`))
    .addColumn('changed_by', 'uuid')
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('grower_sms_opt_outs').execute();
}
