import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  Foreground,
  ForegroundYield,
  threadResources,
  type Config,
  type ThreadData,
} from '@filiere/platform';
import { Kysely, PostgresDialect } from 'kysely';
import {
  catalogueDecoder,
  pgPushPublisher,
  startInProcessProjections,
  type InProcessProjections,
} from '@filiere/projections';
import type { Database } from '../database.js';
import { product, type StartedJob } from '../modules.js';

/** What the API's thread host sends this thread. */
export type ToBackgroundThread =
  | { type: 'wake' }
  | { type: 'wake-job'; name: string }
  | { type: 'idle'; id: number }
  | { type: 'close' };

/** What this thread answers. */
export type FromBackgroundThread =
  | { type: 'ready'; priority: number | null }
  | { type: 'idle'; id: number }
  | { type: 'closed' }
  | { type: 'log'; line: string };

export interface BackgroundThreadData extends ThreadData {
  /** The API's configuration (the jobs `withoutRedis` read it). */
  config: Config;
  /** Events read per batch (PROJECTION_BATCH_SIZE). */
  batchSize: number;
  /** Least time between two runs of the projectors (PROJECTION_GATHER_MS). */
  gatherMs: number;
  /** The API thread's Foreground (its buffer): this thread's payouts wait while it is busy. */
  foreground: SharedArrayBuffer;
}

/**
 * The API's background thread (no Redis): the product's projectors (`startInProcessProjections`,
 * on this thread's own event loop, pool and LISTEN connection) and the modules' jobs that need
 * no Redis (`withoutRedis`: the ledger's integrity verification), so that the API's thread spends
 * its time on requests, commands and the contract runs rather than on the read models (in a run
 * of 10,000 contracts the projectors took as much of the API's one thread as the run itself).
 * Its log lines go to the API's logger; its pushes go through NOTIFY filiere_push as before.
 * Started by `startBackgroundThread` (background-thread-host.ts).
 */
async function main(): Promise<void> {
  const port = parentPort!;
  const data = workerData as BackgroundThreadData;
  const post = (message: FromBackgroundThread) => port.postMessage(message);
  const { logger, priority, pool } = threadResources({ ...data, name: 'projections', max: 10 });
  const foreground = new Foreground(data.foreground);
  const projectionsYield = new ForegroundYield(foreground);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const publish = pgPushPublisher(db);
  const running: InProcessProjections = startInProcessProjections({
    db,
    projectors: product.projectors,
    logger,
    databaseUrl: data.databaseUrl,
    publish,
    decode: catalogueDecoder(product.catalogue),
    batchSize: data.batchSize,
    gatherMs: data.gatherMs,
    // While the API's thread settles a contract run, the read models wait (30 s at most in a
    // row): the run's own progress goes out from its runner, and the cores go to the run.
    beforeBatch: () => projectionsYield.wait(),
  });
  // The jobs that need no Redis (the ledger's integrity verification), here rather than on the
  // API's thread; NODE_ENV=test starts no background loop anywhere, as the API does not.
  const jobs = new Map<string, StartedJob>();
  if (data.config.NODE_ENV !== 'test') {
    for (const job of product.jobs) {
      if (!job.withoutRedis) continue;
      jobs.set(
        job.name,
        await job.start({
          config: data.config,
          db,
          databaseUrl: data.databaseUrl,
          logger,
          catalogue: product.catalogue,
          publish,
          foreground,
        }),
      );
    }
  }
  port.on('message', (message: ToBackgroundThread) => {
    switch (message.type) {
      case 'wake':
        running.wake();
        break;
      case 'wake-job':
        jobs.get(message.name)?.wake?.();
        break;
      case 'idle':
        void running.idle().then(() => post({ type: 'idle', id: message.id }));
        break;
      case 'close':
        void (async () => {
          await running.close();
          for (const job of jobs.values()) await job.close();
          await db.destroy();
          post({ type: 'closed' });
          port.close();
        })();
        break;
    }
  });
  post({ type: 'ready', priority });
}

if (!isMainThread && parentPort) await main();
