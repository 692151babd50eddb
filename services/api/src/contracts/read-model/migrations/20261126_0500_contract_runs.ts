import { sql, type Kysely } from 'kysely';

/**
 * Running contracts (POST contracts/run-contracts): a run (who asked, how many contracts,
 * the Idempotency-Key that names it), one item per contract with its outcome, and one leased
 * job per contract (platform's LeasedJobs: `locked_until`, `claim_token`) that the API's
 * in-process loop or the worker runs. Operational tables, not projections: the money moves
 * only through the contract's pipeline command, whose decider pays a contract at most once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table contract_runs (
    id uuid primary key,
    aggregator_user_id uuid not null,
    idempotency_key text unique,
    total integer not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index contract_runs_by_aggregator
    on contract_runs (aggregator_user_id, created_at desc)`.execute(db);
  await sql`create table contract_run_items (
    run_id uuid not null references contract_runs (id) on delete cascade,
    contract_id text not null,
    position integer not null,
    status text not null default 'PENDING'
      check (status in ('PENDING', 'COMPLETED', 'FAILED')),
    error text,
    grower_net bigint,
    recovered_amount bigint,
    payout_id text,
    updated_at timestamptz not null default now(),
    primary key (run_id, contract_id)
  )`.execute(db);
  await sql`create table contract_jobs (
    id text primary key,
    run_id uuid not null,
    contract_id text not null,
    attempts integer not null default 0,
    run_at timestamptz not null default now(),
    last_error text,
    locked_until timestamptz,
    claim_token uuid,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index contract_jobs_due on contract_jobs (run_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists contract_jobs`.execute(db);
  await sql`drop table if exists contract_run_items`.execute(db);
  await sql`drop table if exists contract_runs`.execute(db);
}
