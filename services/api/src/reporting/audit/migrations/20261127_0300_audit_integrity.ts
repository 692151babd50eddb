import { sql, type Kysely } from 'kysely';

/**
 * `audit_integrity`: how far the event log's hash chain has been verified, when, and whether
 * it holds (OK) or broke (BROKEN, with the first broken position). One row, advanced by the
 * background verification (reporting/audit/verifier.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table audit_integrity (
    id boolean primary key default true check (id),
    last_position bigint not null default 0,
    last_hash text not null default repeat('0', 64),
    verified_at timestamptz,
    status text not null default 'OK' check (status in ('OK', 'BROKEN')),
    broken_at bigint,
    reason text,
    broken_detected_at timestamptz,
    sweep_position bigint not null default 0,
    sweeps bigint not null default 0
  )`.execute(db);
  await sql`insert into audit_integrity (id) values (true)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_integrity').ifExists().execute();
}
