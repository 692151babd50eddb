import { sql, type Kysely } from 'kysely';

/**
 * Reconciliation's tables. The read tables (`reconciliation_lines`, `_movements`, `_days`,
 * `_exceptions`, `_exception_history`) are filled by its projectors only, so a replay rebuilds
 * them; `reconciliation_bank_mappings` is the write side's (a setting per bank).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table reconciliation_lines (
    line_key text primary key,
    source text not null,
    day text not null,
    provider_reference text not null,
    reference text,
    direction text not null,
    amount bigint not null,
    account text,
    occurred_at timestamptz not null
  )`.execute(db);
  await sql`create index reconciliation_lines_by_day on reconciliation_lines (source, day)`.execute(
    db,
  );
  await sql`create table reconciliation_movements (
    movement_key text primary key,
    channel text not null,
    kind text not null,
    reference text not null,
    provider_reference text,
    direction text not null,
    amount bigint not null,
    account text,
    status text not null,
    moved_at timestamptz
  )`.execute(db);
  await sql`create index reconciliation_movements_by_time
    on reconciliation_movements (channel, moved_at) where moved_at is not null`.execute(db);
  await sql`create table reconciliation_days (
    source text not null,
    day text not null,
    figures jsonb not null,
    status text not null,
    reconciled_at timestamptz not null,
    primary key (source, day)
  )`.execute(db);
  await sql`create table reconciliation_exceptions (
    exception_id text primary key,
    kind text not null,
    source text not null,
    day text not null,
    direction text not null,
    amount bigint not null,
    difference bigint not null,
    line_key text,
    movement_key text,
    reference text,
    account text,
    status text not null,
    owner_user_id uuid,
    proposed_action text,
    proposed_target text,
    proposed_by uuid,
    linked_line_key text,
    linked_movement_key text,
    opened_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index reconciliation_exceptions_open
    on reconciliation_exceptions (status, opened_at)`.execute(db);
  await sql`create table reconciliation_exception_history (
    position bigint primary key,
    exception_id text not null,
    type text not null,
    user_id uuid,
    note text,
    at timestamptz not null
  )`.execute(db);
  await sql`create index reconciliation_exception_history_by_exception
    on reconciliation_exception_history (exception_id, position)`.execute(db);
  await sql`create table reconciliation_bank_mappings (
    bank_code text primary key,
    mapping jsonb not null,
    updated_by uuid not null,
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'reconciliation_bank_mappings',
    'reconciliation_exception_history',
    'reconciliation_exceptions',
    'reconciliation_days',
    'reconciliation_movements',
    'reconciliation_lines',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
