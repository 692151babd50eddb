import { Queue, Worker, type Job } from 'bullmq';
import type { Kysely } from 'kysely';
import type { ProjectionTables } from './migrations/tables.js';
import { redisConnection, type Logger } from '@filiere/platform';
import type { Projector } from './projector.js';
import { catchUp, type RunOptions } from './runner.js';
import { skipIrrelevantAll } from './checkpoints.js';

export const PROJECTION_QUEUE = 'filiere-projections';

interface JobData {
  attempt?: number;
}

/**
 * The producer side: one deduplicated job per projector. While a job for that
 * projector waits, more wake-ups are no-ops; while one runs, one more is kept
 * to run after it (`keepLastIfActive`), so a wake-up is never lost to a race.
 */
export class ProjectionQueue {
  readonly queue: Queue;
  private readonly inFlight = new Set<string>();

  constructor(
    redisUrl: string,
    private readonly names: string[],
    private readonly logger?: Logger,
  ) {
    this.queue = new Queue(PROJECTION_QUEUE, { connection: redisConnection(redisUrl, 'producer') });
    this.queue.on('error', () => undefined);
  }

  /** Enqueues a run of each projector (default: all); never throws. */
  wake(names: string[] = this.names, delay = 0, data: JobData = {}): void {
    for (const name of names) {
      if (!delay && this.inFlight.has(name)) continue;
      this.inFlight.add(name);
      this.queue
        .add(name, data, {
          deduplication: { id: `project-${name}`, keepLastIfActive: true },
          removeOnComplete: true,
          removeOnFail: true,
          ...(delay ? { delay } : {}),
        })
        .catch((err: unknown) =>
          this.logger?.warn({ err, projector: name }, 'could not enqueue projection job'),
        )
        .finally(() => this.inFlight.delete(name));
    }
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}

/**
 * The producer's wake-up after appends: ONE statement (skipIrrelevantAll, the in-process
 * runner's probe) moves every projector with no event of its types past its checkpoint to the
 * head by compare-and-set, and only the others get a BullMQ job. A transfer concerns ~4 of the
 * dozen projectors: the other ~8 jobs (each several Redis round trips in the producer and the
 * worker, plus the worker's own probe statement) per wake-up are gone. Probes coalesce: wake-ups
 * during one make one more. A failed probe wakes every projector (the workers' own probes then
 * decide, as before); the workers' periodic sweep still wakes all of them.
 */
export function relevantWaker<DB extends ProjectionTables>(opts: {
  db: Kysely<DB>;
  queue: ProjectionQueue;
  projectors: readonly Projector[];
  logger?: Logger;
}): () => void {
  let probing = false;
  let again = false;
  const probe = async () => {
    probing = true;
    try {
      do {
        again = false;
        let names: string[];
        try {
          names = [...(await skipIrrelevantAll(opts.db, opts.projectors))];
        } catch (err) {
          opts.logger?.warn({ err }, 'projections: probe failed; waking every projector');
          names = opts.projectors.map((p) => p.name);
        }
        if (names.length) opts.queue.wake(names);
      } while (again);
    } finally {
      probing = false;
    }
  };
  return () => {
    if (probing) {
      again = true;
      return;
    }
    void probe();
  };
}

export interface ProjectionWorkerOptions<
  DB extends ProjectionTables = ProjectionTables,
> extends RunOptions {
  db: Kysely<DB>;
  redisUrl: string;
  projectors: readonly Projector[];
  logger: Logger;
  /** How often this worker enqueues every projector, recovering lost wake-ups (default 3 s). */
  sweepMs?: number;
  /** Batches per job before it yields and re-enqueues itself (default 20). */
  maxBatches?: number;
  retryMs?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export interface ProjectionWorkers {
  queue: ProjectionQueue;
  worker: Worker;
  close(): Promise<void>;
}

/**
 * BullMQ worker for the projection jobs. Correctness lives in the checkpoint
 * (row lock + same-transaction write); BullMQ only schedules. A job runs up to
 * `maxBatches` batches and re-enqueues itself while behind; a failure
 * re-enqueues with exponential backoff.
 */
export async function startProjectionWorkers<DB extends ProjectionTables>(
  opts: ProjectionWorkerOptions<DB>,
): Promise<ProjectionWorkers> {
  const byName = new Map(opts.projectors.map((p) => [p.name, p]));
  const names = [...byName.keys()];
  const queue = new ProjectionQueue(opts.redisUrl, names, opts.logger);
  const retryMs = opts.retryMs ?? 500;
  const worker = new Worker(
    PROJECTION_QUEUE,
    async (job: Job<JobData>) => {
      const projector = byName.get(job.name);
      if (!projector) return;
      try {
        const result = await catchUp(opts.db, projector, {
          ...opts,
          maxBatches: opts.maxBatches ?? 20,
        });
        if (!result.caughtUp) queue.wake([projector.name]);
      } catch (error) {
        const attempt = (job.data.attempt ?? 0) + 1;
        const delay = Math.min(60_000, retryMs * 2 ** (attempt - 1));
        opts.logger.error(
          { err: error, projector: projector.name, retryInMs: delay },
          'projector failed; retrying',
        );
        queue.wake([projector.name], delay, { attempt });
      }
    },
    {
      connection: redisConnection(opts.redisUrl, 'worker'),
      concurrency: Math.max(1, names.length),
      // A crashed worker's job goes back to the queue within seconds (its lock is renewed
      // every lockDuration/2 while alive); correctness never depends on this lock.
      lockDuration: opts.lockDurationMs ?? 10_000,
      stalledInterval: opts.stalledIntervalMs ?? 5_000,
      maxStalledCount: 1000,
    },
  );
  worker.on('error', (err) => opts.logger.warn({ err }, 'projection worker error'));
  const sweep = setInterval(() => queue.wake(), opts.sweepMs ?? 3000);
  sweep.unref();
  queue.wake();
  return {
    queue,
    worker,
    async close() {
      clearInterval(sweep);
      await worker.close().catch(() => undefined);
      await queue.close();
    },
  };
}
