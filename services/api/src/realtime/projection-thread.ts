import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createDb, createLineLogger } from '@filiere/platform';
import {
  catalogueDecoder,
  pgPushPublisher,
  startInProcessProjections,
  type InProcessProjections,
} from '@filiere/projections';
import type { Database } from '../database.js';
import { product } from '../modules.js';
import { lowerThreadPriority } from './thread-priority.js';

/** What the API's thread host sends this thread. */
export type ToProjectionThread =
  { type: 'wake' } | { type: 'idle'; id: number } | { type: 'close' };

/** What this thread answers. */
export type FromProjectionThread =
  | { type: 'ready'; priority: number | null }
  | { type: 'idle'; id: number }
  | { type: 'closed' }
  | { type: 'log'; line: string };

export interface ProjectionThreadData {
  databaseUrl: string;
  logLevel: string;
  /** Nice value of this thread (Linux; 0 keeps the process's). */
  nice: number;
  /** Events read per batch (PROJECTION_BATCH_SIZE). */
  batchSize: number;
}

/**
 * The projectors of the product, run in a worker thread of the API process (no Redis): the
 * same `startInProcessProjections` as before, on its own event loop, pool and LISTEN
 * connection, so that the API's thread spends its time on requests, commands and the
 * contract runs rather than on the read models (in a run of 10,000 contracts the projectors
 * took as much of the API's one thread as the run itself). Its log lines go to the API's
 * logger; its pushes go through NOTIFY filiere_push as before. Started by
 * `startProjectionThread` (projection-thread-host.ts).
 */
async function main(): Promise<void> {
  const port = parentPort!;
  const data = workerData as ProjectionThreadData;
  const post = (message: FromProjectionThread) => port.postMessage(message);
  const logger = createLineLogger(data.logLevel, (line) => post({ type: 'log', line }), {
    thread: 'projections',
  });
  const priority = lowerThreadPriority(data.nice);
  const db = createDb<Database>(data.databaseUrl, {
    max: 10,
    applicationName: 'filiere-projections',
  });
  const running: InProcessProjections = startInProcessProjections({
    db,
    projectors: product.projectors,
    logger,
    databaseUrl: data.databaseUrl,
    publish: pgPushPublisher(db),
    decode: catalogueDecoder(product.catalogue),
    batchSize: data.batchSize,
  });
  port.on('message', (message: ToProjectionThread) => {
    switch (message.type) {
      case 'wake':
        running.wake();
        break;
      case 'idle':
        void running.idle().then(() => post({ type: 'idle', id: message.id }));
        break;
      case 'close':
        void (async () => {
          await running.close();
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
