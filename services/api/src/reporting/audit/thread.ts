import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Kysely, PostgresDialect } from 'kysely';
import { threadResources, type ThreadData } from '@filiere/platform';
import type { PushMessage } from '@filiere/projections';
import { integrityLoop } from './loop.js';
import { IntegrityVerifier, type VerifierTables } from './verifier.js';

/** What the audit thread's host sends it. */
export type ToAuditThread = { type: 'close' };

/** What the audit thread answers (its log lines and `closed` are the supervisor's). */
export type FromAuditThread =
  | { type: 'ready'; priority: number | null }
  | { type: 'push'; messages: PushMessage[] }
  | { type: 'log'; line: string }
  | { type: 'closed' };

export type AuditThreadData = ThreadData;

/**
 * The ledger's integrity verification on a thread of its own (thread-host.ts): its own event
 * loop, a pool of two connections, at the lowest priority. Hashing every event again is the
 * least urgent work of the product; on the projectors' thread its pages held their batches
 * (the projection lag's p99 doubled at half the best transfer rate, docs/benchmarks.md).
 * Its pushes (a broken chain) go back to the host, which publishes them as its jobs do.
 */
async function main(): Promise<void> {
  const port = parentPort!;
  const data = workerData as AuditThreadData;
  const post = (message: FromAuditThread) => port.postMessage(message);
  const { logger, priority, pool } = threadResources({ ...data, name: 'audit', max: 2 });
  const db = new Kysely<VerifierTables>({ dialect: new PostgresDialect({ pool }) });
  const verifier = new IntegrityVerifier(
    db,
    async (messages) => post({ type: 'push', messages }),
    logger,
  );
  const loop = integrityLoop(verifier, logger);
  loop.start();
  port.on('message', (message: ToAuditThread) => {
    if (message.type !== 'close') return;
    void (async () => {
      await loop.stop();
      await db.destroy();
      post({ type: 'closed' });
      port.close();
    })();
  });
  post({ type: 'ready', priority });
}

if (!isMainThread && parentPort) await main();
