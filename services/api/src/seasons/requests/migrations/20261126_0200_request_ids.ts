import { sql, type Kysely } from 'kysely';

/**
 * The requests' write side: the numeric ids of new requests (sequence `season_request_ids`,
 * drawn before the command is decided; a refused command leaves a harmless gap), and the
 * delivery codes handed out (`season_request_codes`): a random `AGW_` + 6 digits is claimed
 * here (primary key) before the acceptance is decided, so two requests never get the same
 * code; a claim whose command is refused or repeated stays unused, which is harmless.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence season_request_ids`.execute(db);
  await sql`create table season_request_codes (
    code text primary key check (code ~ '^AGW_[0-9]{6}$'),
    request_id integer not null,
    claimed_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists season_request_codes`.execute(db);
  await sql`drop sequence if exists season_request_ids`.execute(db);
}
