import { sql, type Kysely } from 'kysely';

/**
 * Access tokens carry the user's `token_version` (claim `tv`); the guard refuses a token
 * whose version is not the user's current one. Bumping the version (password change or
 * reset, deactivation, deletion, role change) revokes every token issued before, at once.
 * Tokens issued before this column existed have no claim and count as version 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
