import { sql, type Kysely } from 'kysely';

/**
 * 'Configurer mon cluster': one row per configured cluster (identity's `clusters`) with its
 * aggregator, the manager who configured it and when. The cluster's label stays in
 * `clusters`; its cooperatives and growers are the actors rows whose `cluster_id` it is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cluster_settings')
    .addColumn('cluster_id', 'uuid', (c) => c.primaryKey().references('clusters.id'))
    .addColumn('industrial_user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('manager_user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('updated_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cluster_settings').execute();
}
