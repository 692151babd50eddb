import { sql, type Kysely } from 'kysely';

/**
 * The user's NIP (national identification number): numeric text of at most 10 characters
 * (spec: actors-contracts-admin §9), nullable as most accounts have none. Wallet screens
 * show the counterparty's NIP, read from here at query time like names and phones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('nip', 'text', (c) => c.check(sql`nip ~ '^[0-9]{1,10}$'`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('nip').execute();
}
