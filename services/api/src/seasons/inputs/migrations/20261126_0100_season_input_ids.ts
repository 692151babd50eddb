import { sql, type Kysely } from 'kysely';

/** The numeric ids of input providers' assignments (the spec's userClusterIP ids). */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence season_input_ids`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop sequence if exists season_input_ids`.execute(db);
}
