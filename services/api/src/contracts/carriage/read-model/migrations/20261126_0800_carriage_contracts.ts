import { sql, type Kysely } from 'kysely';

/**
 * `carriage_contracts`: the carriage contracts (contrats de transport), projected from the
 * `carriage-<id>` streams. Lists: the aggregator's own (by creation), the carrier's own, all.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table carriage_contracts (
    id uuid primary key,
    reference text not null,
    status text not null check (status in ('CREATED', 'PAID', 'CANCELED')),
    aggregator_user_id uuid not null,
    carrier_id uuid not null,
    carrier_user_id uuid not null,
    vehicle_id uuid not null,
    car_type text not null,
    registration text not null,
    transport_date date not null,
    amount bigint not null,
    description text,
    hold_id text not null,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index carriage_contracts_by_aggregator
    on carriage_contracts (aggregator_user_id, created_at desc, id desc)`.execute(db);
  await sql`create index carriage_contracts_by_carrier
    on carriage_contracts (carrier_id, created_at desc, id desc)`.execute(db);
  await sql`create index carriage_contracts_by_creation
    on carriage_contracts (created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists carriage_contracts`.execute(db);
}
