import { Worker } from 'bullmq';
import { redisConnection, type InProcessLoop, type Logger } from '@filiere/platform';

export interface LoopWorker {
  loop: InProcessLoop;
  close(): Promise<void>;
}

/**
 * Background work in the worker process (`npm run worker`): the same in-process loop the API
 * runs without REDIS_URL (one run at a time, polling, sweeping, recovering at start), woken
 * by the jobs of a BullMQ queue. BullMQ only wakes: the work and its leases live in
 * PostgreSQL, so a lost wake-up is made up by the loop's polling, and any number of workers
 * may run. Both wallet workers (payouts and supply checks, exports) start this way.
 */
export function startLoopWorker(options: {
  queue: string;
  redisUrl: string;
  loop: InProcessLoop;
  logger: Logger;
}): LoopWorker {
  const { loop, logger } = options;
  const worker = new Worker(
    options.queue,
    async () => {
      loop.wake();
      await loop.idle();
    },
    { connection: redisConnection(options.redisUrl, 'worker'), concurrency: 1 },
  );
  worker.on('error', (err) => logger.warn({ err, queue: options.queue }, 'job worker error'));
  loop.start();
  return {
    loop,
    async close() {
      await worker.close().catch(() => undefined);
      await loop.stop();
    },
  };
}
