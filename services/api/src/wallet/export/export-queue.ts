import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { redisConnection, type Logger } from '@filiere/platform';
import type { PushPublisher } from '@filiere/projections';
import { exportLoop, type ExportLoopOptions } from './export-loop.js';
import { ExportRunner, type ExportRunnerOptions } from './export-runner.js';
import type { WalletExportsTables } from './export-store.js';
import { startLoopWorker, type LoopWorker } from '../jobs/loop-worker.js';

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

export type ExportWorker = LoopWorker;

/**
 * The worker side (`npm run worker`): the export loop (as in the API without REDIS_URL) woken
 * by BullMQ; it also polls for jobs whose runner died (lease run out) and sweeps old files.
 * Exports run one at a time per worker process; any number of workers may run.
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
  return startLoopWorker({
    queue: EXPORT_QUEUE,
    redisUrl: options.redisUrl,
    loop: exportLoop(runner, options.logger, options.loop),
    logger: options.logger,
  });
}
