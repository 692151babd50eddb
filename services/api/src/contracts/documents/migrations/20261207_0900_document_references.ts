import { sql, type Kysely } from 'kysely';

/**
 * `document_references`: the public reference of each document a QR code points to
 * (`/verifier/{reference}`). Write side, not a projection: a reference, once printed, must
 * answer for ever, so a rebuild of the read model never touches it. One row per document:
 * a contract, a payment receipt (a settled contract), a statement at one state of the ledger
 * (`subject_key` says which, unique). The reference is random (100 bits): it reveals nothing
 * and cannot be enumerated.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table document_references (
    reference text primary key,
    kind text not null check (kind in ('CONTRACT', 'RECEIPT', 'STATEMENT')),
    subject_key text not null unique,
    subject_id uuid not null,
    period_from date,
    period_to date,
    ledger_position bigint,
    ledger_hash text,
    issued_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists document_references`.execute(db);
}
