import { sql, type Kysely } from 'kysely';

/**
 * `wallet_exports`: the background .xlsx exports, durable across restarts. A job is
 * PENDING until a runner claims it (RUNNING, with a lease `locked_until` the runner renews
 * while it writes; `attempts` counts claims and fences a runner that lost its lease), then
 * READY with its file (relative to DATA_DIR) or FAILED with an error. A RUNNING job whose
 * lease ran out (its process died) is claimed again. Rows and files go after 24 hours.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallet_exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('wallet_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('PENDING', 'RUNNING', 'READY', 'FAILED')`),
    )
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('file', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('wallet_exports_open_idx')
    .on('wallet_exports')
    .column('created_at')
    .where(sql.ref('status'), 'in', ['PENDING', 'RUNNING'])
    .execute();
  await db.schema
    .createIndex('wallet_exports_created_idx')
    .on('wallet_exports')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wallet_exports').execute();
}
