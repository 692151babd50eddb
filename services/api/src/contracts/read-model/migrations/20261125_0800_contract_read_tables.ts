import { sql, type Kysely } from 'kysely';

/**
 * The contracts' read tables, filled by the `contracts` projector from the `contract-<id>`
 * and `debt-<id>` streams only (ids, kg, F CFA, the events' dates): a replay rebuilds the
 * same rows. Names of users, growers and plots are joined at query time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table delivery_contracts (
    id text primary key,
    reference text not null,
    parent_id text,
    aggregator_user_id uuid not null,
    grower_id uuid not null,
    grower_user_id uuid not null,
    plot_id uuid not null,
    product_type text,
    quantity_kg bigint not null,
    amount bigint not null,
    delivery_date date not null,
    status text not null,
    delivered_kg bigint,
    delivered_on date,
    delivered_amount bigint,
    recovered_amount bigint,
    grower_net bigint,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index delivery_contracts_by_aggregator
    on delivery_contracts (aggregator_user_id, created_at desc, id desc)`.execute(db);
  await sql`create index delivery_contracts_by_grower
    on delivery_contracts (grower_user_id, created_at desc, id desc)`.execute(db);
  await sql`create index delivery_contracts_by_status
    on delivery_contracts (status, created_at desc, id desc)`.execute(db);

  await sql`create table grower_debts (
    id text primary key,
    kind text not null,
    creditor_user_id uuid not null,
    debtor_grower_id uuid not null,
    principal bigint not null,
    recovered bigint not null default 0,
    opened_at timestamptz not null
  )`.execute(db);
  await sql`create index grower_debts_outstanding on grower_debts (debtor_grower_id, opened_at, id)
    where recovered < principal`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists grower_debts`.execute(db);
  await sql`drop table if exists delivery_contracts`.execute(db);
}
