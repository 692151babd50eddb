import { Redis } from 'ioredis';
import { product, type Database, type JobModule } from '@filiere/api/modules';
import { Kysely, PostgresDialect } from 'kysely';
import { createPool, lowerServerPriority, type Config, type Logger } from '@filiere/platform';
import {
  catalogueDecoder,
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
  /** Defaults to the modules' projectors. */
  projectors?: readonly Projector[];
  /** Payload decoding; defaults to the modules' event catalogue, `null` hands raw payloads. */
  decode?: EventDecoder | null;
  batchSize?: number;
  /** Least time between two group jobs (PROJECTION_GATHER_MS); defaults to the config's. */
  gatherMs?: number;
  /** Background work to run (payouts, supply checks, exports…); defaults to the modules' jobs. */
  jobs?: readonly JobModule[];
  /**
   * Nice value of the PostgreSQL server processes serving this worker (a local server only),
   * as `npm run worker` sets its own (BACKGROUND_NICE); 0 or none: unchanged.
   */
  nice?: number;
}

export interface RunningWorker {
  close(): Promise<void>;
}

/**
 * Starts the BullMQ projection workers and each module's background jobs (the wallet's
 * payouts and supply checks, its .xlsx exports), all taken from the module list
 * (services/api/src/modules.ts) without loading the API's routes or Fastify. Any number
 * of these processes may run: the checkpoint row lock keeps one projector applied by one
 * of them at a time, and a job row's claim lease keeps one job run by one of them at a time.
 */
export async function runWorker(options: WorkerOptions): Promise<RunningWorker> {
  // The product's tables: the projection engine reads its own, the modules' jobs theirs.
  const pool = createPool(options.databaseUrl, { max: 10, applicationName: 'filiere-worker' });
  if (options.nice) lowerServerPriority(pool, options.databaseUrl, options.nice);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', (err) => options.logger.warn({ err }, 'redis connection error'));
  // Projectors and jobs push through the same publisher (the hub subscribes to Redis).
  const publish = redisPushPublisher(redis);
  const workers = await startProjectionWorkers({
    db,
    redisUrl: options.redisUrl,
    projectors: options.projectors ?? product.projectors,
    logger: options.logger,
    publish,
    decode:
      options.decode === null ? undefined : (options.decode ?? catalogueDecoder(product.catalogue)),
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    gatherMs: options.gatherMs ?? options.config.PROJECTION_GATHER_MS,
  });
  const jobs: { close(): Promise<void> }[] = [];
  for (const job of options.jobs ?? product.jobs) {
    jobs.push(
      await job.start({
        config: options.config,
        db,
        databaseUrl: options.databaseUrl,
        logger: options.logger,
        redisUrl: options.redisUrl,
        catalogue: product.catalogue,
        publish,
      }),
    );
  }
  return {
    async close() {
      await workers.close();
      for (const job of jobs) await job.close();
      redis.disconnect();
      await db.destroy();
    },
  };
}
