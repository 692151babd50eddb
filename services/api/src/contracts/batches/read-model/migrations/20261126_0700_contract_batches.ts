import { sql, type Kysely } from 'kysely';

/**
 * 'Create many' (LIVRAISON_PARENT):
 * - `contract_batch_previews` + `contract_batch_preview_rows`: a checked file (or a selection
 *   of growers) waiting for 'Valider' — working data of the command, not a projection (nothing
 *   is created from a file until it is validated); a preview expires (24 h) and is its
 *   owner's only. `parent_id` is set once validated.
 * - `contract_parents`: the parents, projected from `ParentContractCreated` (their
 *   sub-contracts are `delivery_contracts` rows with `parent_id`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table contract_batch_previews (
    id uuid primary key,
    owner_user_id uuid not null,
    source text not null check (source in ('FILE', 'GROWERS')),
    file_name text,
    row_count integer not null,
    total_kg bigint not null,
    total_amount bigint not null,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    parent_id text
  )`.execute(db);
  await sql`create index contract_batch_previews_expiry on contract_batch_previews (expires_at)
    where parent_id is null`.execute(db);
  await sql`create table contract_batch_preview_rows (
    preview_id uuid not null references contract_batch_previews (id) on delete cascade,
    line integer not null,
    grower_id uuid not null,
    grower_user_id uuid not null,
    plot_id uuid not null,
    product_type text,
    quantity_kg bigint not null,
    amount bigint not null,
    delivery_date date not null,
    primary key (preview_id, line)
  )`.execute(db);

  await sql`create table contract_parents (
    id text primary key,
    reference text not null,
    aggregator_user_id uuid not null,
    source text not null,
    file_name text,
    sub_count integer not null,
    total_kg bigint not null,
    total_amount bigint not null,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index contract_parents_by_aggregator
    on contract_parents (aggregator_user_id, created_at desc, id desc)`.execute(db);
  await sql`create index delivery_contracts_by_parent
    on delivery_contracts (parent_id, created_at, id) where parent_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists delivery_contracts_by_parent`.execute(db);
  await sql`drop table if exists contract_parents`.execute(db);
  await sql`drop table if exists contract_batch_preview_rows`.execute(db);
  await sql`drop table if exists contract_batch_previews`.execute(db);
}
