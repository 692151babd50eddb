import { sql, type Kysely } from 'kysely';

/** An exception's history names the owner each assignment gave; the list filters by owner. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table reconciliation_exception_history add column owner_user_id uuid`.execute(db);
  await sql`create index reconciliation_exceptions_by_owner
    on reconciliation_exceptions (owner_user_id, status)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists reconciliation_exceptions_by_owner`.execute(db);
  await sql`alter table reconciliation_exception_history drop column if exists owner_user_id`.execute(
    db,
  );
}
