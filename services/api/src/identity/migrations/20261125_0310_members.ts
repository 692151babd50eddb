import { sql, type Kysely } from 'kysely';

/**
 * Members: growers, carriers, cooperatives' and input suppliers' representatives
 * are users that staff register (identity/members.ts).
 * - `users.email` becomes nullable: a grower or a carrier may have none (the unique index on
 *   lower(email) ignores nulls).
 * - `users.pin_hash`: the argon2id hash of a grower's 5-digit PIN (mobile channel).
 * - `users.bank_name`: the bank of `bank_account_number`.
 * - A phone identifies a member (the index below is dropped again by 0311: see there): unique among the non-deleted users of the member roles
 *   (grower 3, carrier 4, input provider 9, farmer organisation 10). The API also checks it
 *   against every non-deleted user before writing (409 PHONE_ALREADY_EXIST); existing staff
 *   accounts may share a phone, so the index covers the member roles only.
 * - `sms_outbox`: the SMS port's default adapter (identity/sms/) writes every SMS there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .alterColumn('email', (c) => c.dropNotNull())
    .execute();
  await db.schema.alterTable('users').addColumn('pin_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('bank_name', 'text').execute();
  await sql`create unique index users_member_phone_unique on users (phone)
    where deleted_at is null and phone is not null and role_id in (3, 4, 9, 10)`.execute(db);
  await sql`create index users_phone_idx on users (phone) where deleted_at is null`.execute(db);
  await db.schema
    .createTable('sms_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sms_outbox_recipient_idx')
    .on('sms_outbox')
    .columns(['recipient', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_outbox').execute();
  await sql`drop index users_phone_idx`.execute(db);
  await sql`drop index users_member_phone_unique`.execute(db);
  await db.schema.alterTable('users').dropColumn('bank_name').execute();
  await db.schema.alterTable('users').dropColumn('pin_hash').execute();
  await sql`update users set email = username where email is null`.execute(db);
  await db.schema
    .alterTable('users')
    .alterColumn('email', (c) => c.setNotNull())
    .execute();
}
