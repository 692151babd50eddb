import { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { CommandPipeline, EventStore, type EventCatalogue } from '@filiere/event-store';
import { redisConnection, type Config, type Foreground, type Logger } from '@filiere/platform';
import type { WalletDb } from '../tables.js';
import { createWalletWriteSide } from '../write-side.js';
import { InProcessJobLoop } from './in-process.js';
import { startLoopWorker } from './loop-worker.js';

export const WALLET_JOB_QUEUE = 'filiere-wallet-jobs';

/**
 * The API side with REDIS_URL: a job added to `wallet_jobs` becomes a BullMQ job (delayed
 * until its run time) that wakes a worker. BullMQ only schedules; the job itself, its
 * retries and its lease live in `wallet_jobs`, so a lost BullMQ job is recovered by the
 * worker's sweep.
 */
export class WalletJobQueue {
  readonly queue: Queue;

  constructor(
    redisUrl: string,
    private readonly logger?: Logger,
  ) {
    this.queue = new Queue(WALLET_JOB_QUEUE, { connection: redisConnection(redisUrl, 'producer') });
    this.queue.on('error', () => undefined);
  }

  wake(runAt: Date): void {
    const delay = Math.max(0, runAt.getTime() - Date.now());
    this.queue
      .add(
        'run-due',
        {},
        {
          // One waiting wake-up per 100 ms slot is enough: each runs every due job.
          jobId: `run-due-${Math.ceil((Date.now() + delay) / 100)}`,
          delay,
          removeOnComplete: true,
          removeOnFail: true,
        },
      )
      .catch((err: unknown) => this.logger?.warn({ err }, 'could not enqueue wallet job'));
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}

export interface WalletJobWorker {
  close(): Promise<void>;
  /** Runs due jobs now (a payout was just scheduled by another thread). */
  wake(): void;
}

/**
 * The wallet's job loop (`InProcessJobLoop`) over a command pipeline of its own: in the worker
 * (`npm run worker`) woken by BullMQ, in the API's background thread (no `redisUrl`) woken by
 * `wake` from the API's thread; polling every `sweepMs` (delayed retries, lost wake-ups) and
 * recovering payouts from the ledger's state at start and every `recoverEveryMs`. Any number
 * may run: jobs are leased in SQL.
 */
export async function startWalletJobWorker<DB extends WalletDb>(options: {
  config: Config;
  db: Kysely<DB>;
  redisUrl?: string;
  logger: Logger;
  /** The product's catalogue (the job pipeline's event store encodes and decodes with it). */
  catalogue: EventCatalogue;
  /** How often due jobs are looked for without a wake-up (default 2 s). */
  sweepMs?: number;
  /** How often payouts are recovered from the ledger's state (default 60 s). */
  recoverEveryMs?: number;
  /** Foreground work the jobs wait for (the API's contract runs, in its background thread). */
  yieldTo?: Foreground;
}): Promise<WalletJobWorker> {
  const pipeline = new CommandPipeline(new EventStore(options.db, options.catalogue), {
    batchMax: options.config.COMMAND_BATCH_MAX,
    batchWaitMs: options.config.COMMAND_BATCH_WAIT_MS,
  });
  const side = createWalletWriteSide({
    db: options.db,
    config: options.config,
    logger: options.logger,
    pipeline,
  });
  // Recovery runs at start and then periodically: an API process killed between a
  // withdrawal's commit and its job insert (or a database lost in between) left a debited
  // withdrawal without a payout job until some worker restarted (found by the bank test).
  const loop = new InProcessJobLoop(side.runner, options.logger, {
    pollMs: options.sweepMs ?? 2000,
    recoverEveryMs: options.recoverEveryMs ?? 60_000,
    ...(options.yieldTo ? { yieldTo: options.yieldTo } : {}),
  });
  const worker = options.redisUrl
    ? startLoopWorker({
        queue: WALLET_JOB_QUEUE,
        redisUrl: options.redisUrl,
        loop,
        logger: options.logger,
      })
    : (loop.start(), { loop, close: () => loop.stop() });
  return {
    async close() {
      await worker.close();
      await pipeline.close();
    },
    wake: () => loop.wake(),
  };
}
