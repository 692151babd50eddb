import { Redis } from 'ioredis';
import { defineWalletEvents, startExportWorker, startWalletJobWorker } from '@filiere/api';
import { createDb, type Config, type Logger } from '@filiere/platform';
import {
  catalogueDecoder,
  projectors as registeredProjectors,
  redisPushPublisher,
  startProjectionWorkers,
  type EventDecoder,
  type Projector,
} from '@filiere/projections';

export interface WorkerOptions {
  config: Config;
  databaseUrl: string;
  redisUrl: string;
  logger: Logger;
  /** Defaults to the registry's product projectors. */
  projectors?: Projector[];
  /** Payload decoding; defaults to the event catalogue, `null` hands raw payloads. */
  decode?: EventDecoder | null;
  batchSize?: number;
  /** Run the wallet's background jobs (payouts, supply checks) too; default true. */
  walletJobs?: boolean;
  /** Run the background .xlsx exports (files under DATA_DIR/exports) too; default true. */
  exports?: boolean;
}

export interface RunningWorker {
  close(): Promise<void>;
}

/**
 * Starts the BullMQ projection workers, the wallet's job worker and the export worker: any number
 * of these processes may run; the checkpoint row lock keeps one projector
 * applied by one of them at a time, and a job row's claim lease keeps one
 * payout or supply check run by one of them at a time.
 */
export async function runWorker(options: WorkerOptions): Promise<RunningWorker> {
  // The wallet's event types, so payloads decode (and upcast) through the catalogue.
  defineWalletEvents();
  const db = createDb(options.databaseUrl, { max: 10, applicationName: 'filiere-worker' });
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', (err) => options.logger.warn({ err }, 'redis connection error'));
  // Projectors and exports push through the same publisher (the hub subscribes to Redis).
  const publish = redisPushPublisher(redis);
  const workers = await startProjectionWorkers({
    db,
    redisUrl: options.redisUrl,
    projectors: options.projectors ?? registeredProjectors,
    logger: options.logger,
    publish,
    decode: options.decode === null ? undefined : (options.decode ?? catalogueDecoder),
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
  });
  const walletJobs =
    options.walletJobs === false
      ? undefined
      : await startWalletJobWorker({
          config: options.config,
          db,
          redisUrl: options.redisUrl,
          logger: options.logger,
        });
  const exports =
    options.exports === false
      ? undefined
      : await startExportWorker({
          db,
          redisUrl: options.redisUrl,
          publish,
          logger: options.logger,
          runner: { dataDir: options.config.DATA_DIR },
        });
  return {
    async close() {
      await workers.close();
      await walletJobs?.close();
      await exports?.close();
      redis.disconnect();
      await db.destroy();
    },
  };
}
