import { sql, type Kysely } from 'kysely';

/**
 * The wallet's write-side tables (the ledger itself is the event store):
 * - `wallet_sandbox_transactions`: what payers chose on the sandbox widget page (the
 *   sandbox provider's own store, read back when a supply is verified);
 * - `wallet_jobs`: background work that must survive a restart (payout of a withdrawal,
 *   verification of a PENDING supply), with its next run time and a short claim lease so
 *   that several processes never run one job at the same time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallet_sandbox_transactions')
    .addColumn('transaction_id', 'text', (c) => c.primaryKey())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('SUCCESS', 'FAILED')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('wallet_sandbox_transactions_reference_idx')
    .on('wallet_sandbox_transactions')
    .column('reference')
    .execute();

  await db.schema
    .createTable('wallet_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('PAYOUT', 'VERIFY_SUPPLY')`))
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('wallet_jobs_run_at_idx')
    .on('wallet_jobs')
    .column('run_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wallet_jobs').execute();
  await db.schema.dropTable('wallet_sandbox_transactions').execute();
}
