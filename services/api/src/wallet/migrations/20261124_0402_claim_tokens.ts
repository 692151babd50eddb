import type { Kysely } from 'kysely';

/**
 * `claim_token` on the wallet's two leased job tables (`wallet_jobs`, `wallet_exports`),
 * for platform's one leased job store (`LeasedJobs`): every claim writes a fresh token and
 * every later write of that claim's runner names it. One token fences both tables (a lease's
 * time or an attempt number would not) and leaves `attempts` to mean what each table counts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['wallet_jobs', 'wallet_exports']) {
    await db.schema.alterTable(table).addColumn('claim_token', 'uuid').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['wallet_jobs', 'wallet_exports']) {
    await db.schema.alterTable(table).dropColumn('claim_token').execute();
  }
}
