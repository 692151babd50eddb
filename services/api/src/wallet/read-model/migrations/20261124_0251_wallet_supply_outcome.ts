import { sql, type Kysely } from 'kysely';

/**
 * `wallet_supplies`: why a FAILED supply failed (`failure_code`: CANCELLED by its payer,
 * REJECTED by a super admin, null for the provider or the widget) and the payer's mobile
 * money number given for the widget. Both come from the supply's events, so a rebuild
 * writes them again; rows of older events keep null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table wallet_supplies
    add column failure_code text,
    add column payer_phone text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table wallet_supplies
    drop column if exists failure_code,
    drop column if exists payer_phone`.execute(db);
}
