import { sql, type Kysely } from 'kysely';

/**
 * The wallet's read tables. Every value comes from the event log (ids, amounts, the
 * events' `recorded_at`), never from `now()` or a sequence, so a replay rebuilds the same
 * rows. User names are not stored: they change outside the log, queries join `users`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await sql`create table wallet_balances (
    wallet_id text primary key,
    owner_user_id text,
    balance bigint not null default 0,
    held bigint not null default 0,
    available_balance bigint not null default 0,
    last_transaction_amount bigint,
    last_transaction_date timestamptz
  )`.execute(db);
  await sql`create index wallet_balances_owner on wallet_balances (owner_user_id)`.execute(db);

  await sql`create table wallet_transactions (
    id bigint primary key,
    key text not null unique,
    wallet_id text not null,
    user_id text,
    reference text not null,
    operation_type text not null,
    direction text not null,
    amount bigint not null,
    status text not null,
    reason text,
    source_wallet_id text,
    destination_wallet_id text,
    source_user_id text,
    destination_user_id text,
    payment_means text,
    destination text,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index wallet_transactions_wallet on wallet_transactions (wallet_id, id desc)`.execute(
    db,
  );
  await sql`create index wallet_transactions_status on wallet_transactions (status, id desc)`.execute(
    db,
  );
  await sql`create index wallet_transactions_reference_trgm on wallet_transactions
    using gin (reference gin_trgm_ops)`.execute(db);
  await sql`create index wallet_transactions_reason_trgm on wallet_transactions
    using gin (reason gin_trgm_ops)`.execute(db);
  await sql`create table wallet_transaction_owners (
    wallet_id text primary key,
    user_id text not null
  )`.execute(db);
  await sql`create table wallet_monthly_counts (
    wallet_id text not null,
    year integer not null,
    month integer not null,
    count integer not null,
    primary key (wallet_id, year, month)
  )`.execute(db);

  await sql`create table wallet_supplies (
    reference text primary key,
    wallet_id text not null,
    owner_user_id text not null,
    method text not null,
    amount bigint not null,
    bank_code text,
    bank_account_number text,
    status text not null,
    failure_reason text,
    provider_transaction_id text,
    validated_by text,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index wallet_supplies_owner on wallet_supplies (owner_user_id, created_at desc)`.execute(
    db,
  );
  await sql`create index wallet_supplies_method on wallet_supplies (method, status, created_at desc)`.execute(
    db,
  );
  await sql`create index wallet_supplies_reference_trgm on wallet_supplies
    using gin (reference gin_trgm_ops)`.execute(db);
  await sql`create table wallet_supply_stats (
    user_id text primary key,
    wallet_id text not null,
    supplies integer not null default 0,
    last_supply_amount bigint,
    last_supply_date timestamptz
  )`.execute(db);

  await sql`create table wallet_financings (
    reference text primary key,
    from_wallet_id text not null,
    to_wallet_id text not null,
    from_user_id text,
    to_user_id text,
    amount bigint not null,
    status text not null,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index wallet_financings_from on wallet_financings (from_user_id, created_at desc)`.execute(
    db,
  );
  await sql`create index wallet_financings_to on wallet_financings (to_user_id, created_at desc)`.execute(
    db,
  );

  await sql`create table wallet_reporting_totals (
    wallet_id text primary key,
    count_debit integer not null default 0,
    total_debit bigint not null default 0,
    count_supplies integer not null default 0,
    total_supplies bigint not null default 0,
    count_transfer integer not null default 0,
    total_transfer bigint not null default 0
  )`.execute(db);
  await sql`create table wallet_reporting_owners (
    wallet_id text primary key,
    user_id text not null
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'wallet_reporting_owners',
    'wallet_reporting_totals',
    'wallet_financings',
    'wallet_supply_stats',
    'wallet_supplies',
    'wallet_monthly_counts',
    'wallet_transaction_owners',
    'wallet_transactions',
    'wallet_balances',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
