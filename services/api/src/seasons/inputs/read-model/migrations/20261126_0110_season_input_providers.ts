import { sql, type Kysely } from 'kysely';

/**
 * The input providers of industrials' season links, filled by the `season-inputs` projector
 * from the `seasoninput-<id>` streams (and the requests' `InputDelivered`, which counts what
 * each assignment delivered). Names are joined at query time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table season_input_providers (
    id integer primary key,
    season_id integer not null,
    link_id integer not null,
    industrial_user_id uuid not null,
    provider_user_id uuid not null,
    fertilizer_id integer not null,
    type_id integer not null,
    quantity_kg bigint not null,
    unit_amount bigint not null,
    amount bigint not null,
    hold_id text not null,
    status text not null,
    delivered_amount bigint not null default 0,
    released_amount bigint not null default 0,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index season_input_providers_link on season_input_providers (link_id, created_at desc)`.execute(
    db,
  );
  await sql`create index season_input_providers_provider on season_input_providers (provider_user_id, link_id)`.execute(
    db,
  );
  await sql`create index season_input_providers_industrial on season_input_providers (industrial_user_id, created_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists season_input_providers`.execute(db);
}
