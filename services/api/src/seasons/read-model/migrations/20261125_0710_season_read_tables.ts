import { sql, type Kysely } from 'kysely';

/**
 * The seasons' read tables, filled by the `seasons` projector from the `season-<id>`
 * streams only (ids, amounts, the events' times): a replay rebuilds the same rows. Names of
 * users and fertilizers are joined at query time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table seasons (
    id integer primary key,
    label text not null,
    from_date date not null,
    to_date date not null,
    unit_product_amount bigint not null,
    production_index numeric(12, 2) not null,
    quotity numeric(5, 2) not null,
    fertilizers jsonb not null,
    is_active boolean not null default false,
    archived boolean not null default false,
    status text not null default 'CREATED',
    industrials_count integer not null default 0,
    total_quantity bigint not null default 0,
    total_production_amount bigint not null default 0,
    total_fertilizer_amount bigint not null default 0,
    total_min_supply_amount bigint not null default 0,
    created_by uuid not null,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index seasons_listed on seasons (archived, created_at desc, id desc)`.execute(
    db,
  );

  await sql`create table season_links (
    id integer primary key,
    season_id integer not null,
    user_id uuid not null,
    quantity bigint not null,
    production_amount bigint not null,
    fertilizer_amount bigint not null,
    min_supply_amount bigint not null,
    status text not null,
    attached_at timestamptz not null,
    expires_at timestamptz not null,
    accepted_at timestamptz,
    canceled_at timestamptz,
    updated_at timestamptz not null,
    unique (season_id, user_id)
  )`.execute(db);
  await sql`create index season_links_user on season_links (user_id, season_id)`.execute(db);
  await sql`create index season_links_due on season_links (expires_at) where status = 'PENDING'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists season_links`.execute(db);
  await sql`drop table if exists seasons`.execute(db);
}
