import { sql, type Kysely } from 'kysely';
import { narrowDb, persistently } from '@filiere/platform';
import { JobStore, type WalletJobsTables } from './job-store.js';

/**
 * Schedules the payout job of a withdrawal another context requested (`requestSystemPayout`,
 * e.g. a contract run), after its commit: the same `payout:<withdrawalId>` job a user's
 * withdrawal gets (deduplicated by id, so a retry schedules nothing twice), run by the
 * wallet's loop or worker on its next poll. A process that dies before this is covered by
 * the wallet runner's recovery, which gives every PENDING withdrawal its job.
 */
export async function schedulePayoutJob<DB extends WalletJobsTables>(
  db: Kysely<DB>,
  withdrawalId: string,
): Promise<void> {
  const store = new JobStore(db);
  await persistently(() =>
    store.add({ id: `payout:${withdrawalId}`, kind: 'PAYOUT', payload: { withdrawalId } }),
  );
}

/**
 * `schedulePayoutJob` for many withdrawals in one insert (a contract run's batch): the same
 * `payout:<withdrawalId>` jobs, deduplicated by id.
 */
export async function schedulePayoutJobs<DB extends WalletJobsTables>(
  db: Kysely<DB>,
  withdrawalIds: string[],
): Promise<void> {
  if (withdrawalIds.length === 0) return;
  const jobs = narrowDb<WalletJobsTables>()(db);
  await persistently(() =>
    jobs
      .insertInto('wallet_jobs')
      .values(
        withdrawalIds.map((withdrawalId) => ({
          id: `payout:${withdrawalId}`,
          kind: 'PAYOUT' as const,
          payload: JSON.stringify({ withdrawalId }),
          attempts: 0,
          // Millisecond precision, as JobStore.add (claimDue compares with JavaScript's clock).
          run_at: sql<Date>`date_trunc('milliseconds', now())`,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute(),
  );
}
