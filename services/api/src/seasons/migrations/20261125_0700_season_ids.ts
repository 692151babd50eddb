import { sql, type Kysely } from 'kysely';

/**
 * The seasons' write side: the numeric ids of new seasons and of industrial links (the
 * original's paths name seasons by number). An id is drawn before the command is decided;
 * a refused command leaves a gap, which is harmless.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence season_ids`.execute(db);
  await sql`create sequence season_link_ids`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop sequence if exists season_link_ids`.execute(db);
  await sql`drop sequence if exists season_ids`.execute(db);
}
