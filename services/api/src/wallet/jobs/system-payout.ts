import type { Kysely } from 'kysely';
import { persistently } from '@filiere/platform';
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
