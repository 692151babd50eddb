import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { redisConnection, type InProcessLoop, type Logger } from '@filiere/platform';
import type { PushPublisher } from '@filiere/projections';
import { exportLoop, type ExportLoopOptions } from './export-loop.js';
import { ExportRunner, type ExportRunnerOptions } from './export-runner.js';
import type { WalletExportsTables } from './export-store.js';

export const EXPORT_QUEUE = 'filiere-export-jobs';

/**
 * The API side with REDIS_URL: a new export job becomes a BullMQ job that wakes a worker.
 * BullMQ only wakes; the job, its progress and its lease live in `wallet_exports`, so a
 * lost wake-up is made up by the workers' polling.
 */
export class ExportQueue {
  private readonly redis: Redis;
  private readonly queue: Queue;

  constructor(
    redisUrl: string,
    private readonly logger?: Logger,
  ) {
    this.redis = new Redis(redisConnection(redisUrl, 'producer'));
    this.redis.on('error', () => undefined);
    this.queue = new Queue(EXPORT_QUEUE, { connection: this.redis });
    this.queue.on('error', () => undefined);
  }

  wake(jobId: string): void {
    this.queue
      .add('export', { jobId }, { jobId, removeOnComplete: true, removeOnFail: true })
      .catch((err: unknown) => this.logger?.warn({ err }, 'could not enqueue export'));
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
  }
}

export interface ExportWorker {
  loop: InProcessLoop;
  close(): Promise<void>;
}

/**
 * The worker side (`npm run worker`): a BullMQ worker whose jobs wake the export loop, which
 * also polls for jobs whose runner died (lease run out) and sweeps old files. Exports run
 * one at a time per worker process; any number of workers may run.
 */
export async function startExportWorker<DB extends WalletExportsTables>(options: {
  db: Kysely<DB>;
  redisUrl: string;
  publish: PushPublisher;
  logger: Logger;
  runner: ExportRunnerOptions;
  loop?: ExportLoopOptions;
}): Promise<ExportWorker> {
  const runner = new ExportRunner(options.db, options.publish, {
    logger: options.logger,
    ...options.runner,
  });
  const loop = exportLoop(runner, options.logger, options.loop);
  const redis = new Redis(redisConnection(options.redisUrl, 'worker'));
  redis.on('error', (err) => options.logger.warn({ err }, 'export worker redis error'));
  const worker = new Worker(
    EXPORT_QUEUE,
    async () => {
      loop.wake();
      await loop.idle();
    },
    { connection: redis, concurrency: 1 },
  );
  worker.on('error', (err) => options.logger.warn({ err }, 'export worker error'));
  loop.start();
  return {
    loop,
    async close() {
      await worker.close().catch(() => undefined);
      await loop.stop();
      redis.disconnect();
    },
  };
}
