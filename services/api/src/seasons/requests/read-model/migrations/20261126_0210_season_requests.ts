import { sql, type Kysely } from 'kysely';

/**
 * `season_requests`: growers' requests (INPUT, PINEAPLE, SOCIAL), filled by the
 * `season-requests` projector from the `seasonrequest-<id>` streams only (InputDelivered
 * included), so a replay rebuilds the same rows. Names are joined at query time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table season_requests (
    id integer primary key,
    reference text not null unique,
    type text not null check (type in ('INPUT', 'PINEAPLE', 'SOCIAL')),
    status text not null check (status in ('CREATED', 'CONFIRMED', 'REJECTED')),
    season_id integer not null,
    link_id integer,
    industrial_user_id uuid,
    sfd_user_id uuid,
    grower_id uuid not null,
    grower_user_id uuid not null,
    fertilizer_id integer,
    quantity_kg bigint,
    amount bigint not null,
    code text,
    delivery_status text check (delivery_status in ('CREATED', 'DONE')),
    received_at timestamptz,
    delivered_by uuid,
    provider_user_id uuid,
    assignment_id integer,
    debt_id text,
    reason text,
    decided_by uuid,
    decided_at timestamptz,
    filed_by uuid not null,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create unique index season_requests_code on season_requests (code) where code is not null`.execute(
    db,
  );
  await sql`create index season_requests_industrial on season_requests (industrial_user_id, type, status, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index season_requests_sfd on season_requests (sfd_user_id, status, created_at desc, id desc) where sfd_user_id is not null`.execute(
    db,
  );
  await sql`create index season_requests_grower on season_requests (grower_id, created_at desc)`.execute(
    db,
  );
  await sql`create index season_requests_link on season_requests (link_id, fertilizer_id) where link_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists season_requests`.execute(db);
}
