import type { Kysely } from 'kysely';
import { EVENTS_CHANNEL } from '@filiere/event-store';
import type { Config, Logger } from '@filiere/platform';
import {
  catalogueDecoder,
  listenChannel,
  pgPushPublisher,
  GROUP_JOB,
  ProjectionQueue,
  startInProcessProjections,
  type ProjectionTables,
} from '@filiere/projections';
import type { BackgroundThreadHandle } from '../kernel/app-deps.js';
import { product } from '../modules.js';
import { startBackgroundThread } from './background-thread-host.js';

export interface ProjectionDispatch {
  /** Wakes the projectors after appends (e.g. from the event store's onAppended hook). */
  wake(): void;
  close(): Promise<void>;
  /** The background thread, when it runs them (and the jobs `withoutRedis`): `AppDeps.backgroundThread`. */
  thread?: BackgroundThreadHandle;
}

/**
 * How the API gets projectors moving after appends. With REDIS_URL: one deduplicated BullMQ
 * job that runs them all as a group (GROUP_JOB), run by `npm run worker` processes.
 * Without: the same projectors run in this process — in a worker thread of their own
 * (background-thread.ts) when there is a database URL to open its pool with, else on this
 * thread (`thread: false` asks for that too). Either way, NOTIFY on filiere_events (sent by
 * every append's transaction) is the wake-up.
 */
export function startProjectionDispatch<DB extends ProjectionTables>(opts: {
  config: Config;
  db: Kysely<DB>;
  logger: Logger;
  databaseUrl: string | undefined;
  thread?: boolean;
}): ProjectionDispatch {
  const { config, db, logger, databaseUrl } = opts;
  const { projectors, catalogue } = product;
  if (config.REDIS_URL) {
    // One deduplicated job runs every projector as a group in a worker (GROUP_JOB): each NOTIFY
    // enqueues it, with no statement of the API's own.
    const queue = new ProjectionQueue(config.REDIS_URL, [GROUP_JOB], logger);
    const wake = () => queue.wake();
    const listener = databaseUrl
      ? listenChannel(databaseUrl, EVENTS_CHANNEL, wake, { onReconnect: wake })
      : undefined;
    wake();
    return {
      wake,
      async close() {
        await listener?.close();
        await queue.close();
      },
    };
  }
  if (databaseUrl && opts.thread !== false) {
    const thread = startBackgroundThread({
      config,
      databaseUrl,
      logger,
      nice: config.BACKGROUND_NICE,
      batchSize: config.PROJECTION_BATCH_SIZE,
      gatherMs: config.PROJECTION_GATHER_MS,
    });
    return {
      wake: thread.wake,
      close: thread.close,
      thread: { wakeJob: thread.wakeJob, foreground: thread.foreground },
    };
  }
  const running = startInProcessProjections({
    db,
    projectors,
    logger,
    ...(databaseUrl ? { databaseUrl } : {}),
    publish: pgPushPublisher(db),
    decode: catalogueDecoder(catalogue),
    batchSize: config.PROJECTION_BATCH_SIZE,
    gatherMs: config.PROJECTION_GATHER_MS,
  });
  return { wake: running.wake, close: running.close };
}
