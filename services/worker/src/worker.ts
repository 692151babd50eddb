import { Redis } from 'ioredis';
import { defineWalletEvents, startWalletJobWorker } from '@filiere/api';
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
}

export interface RunningWorker {
  close(): Promise<void>;
}

/**
 * Starts the BullMQ projection workers and the wallet's job worker: any number
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
  const workers = await startProjectionWorkers({
    db,
    redisUrl: options.redisUrl,
    projectors: options.projectors ?? registeredProjectors,
    logger: options.logger,
    publish: redisPushPublisher(redis),
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
  return {
    async close() {
      await workers.close();
      await walletJobs?.close();
      redis.disconnect();
      await db.destroy();
    },
  };
}
