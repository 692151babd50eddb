import { Queue, Worker, type Job } from 'bullmq';
import type { Kysely } from 'kysely';
import type { ProjectionTables } from './migrations/tables.js';
import { redisConnection, type Logger } from '@filiere/platform';
import type { Projector } from './projector.js';
import { catchUp, ProjectionFailure, type RunOptions } from './runner.js';
import { ensureCheckpoints } from './checkpoints.js';
import { catchUpGroup } from './group.js';
import { BatchPacer } from './pacer.js';

export const PROJECTION_QUEUE = 'filiere-projections';
/**
 * The job that runs every projector as ONE group (`catchUpGroup`: a transaction per batch for
 * all of them, the events read and decoded once). The API wakes only this one; a projector's
 * own job (its name) runs it alone after it failed in the group.
 */
export const GROUP_JOB = 'projectors';

interface JobData {
  attempt?: number;
}

/**
 * The producer side: one deduplicated job per name (the group's, `GROUP_JOB`, or a projector's
 * own). While a job of that name waits, more wake-ups are no-ops; while one runs, one more is
 * kept to run after it (`keepLastIfActive`), so a wake-up is never lost to a race.
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

  /** Enqueues a run of each name (default: the queue's names); never throws. */
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

export interface ProjectionWorkerOptions<
  DB extends ProjectionTables = ProjectionTables,
> extends RunOptions {
  db: Kysely<DB>;
  redisUrl: string;
  projectors: readonly Projector[];
  logger: Logger;
  /**
   * How often this worker enqueues the group job and its projectors running alone, recovering
   * wake-ups lost while Redis was away (default 3 s).
   */
  sweepMs?: number;
  /** Batches per job before it yields and re-enqueues itself (default 20). */
  maxBatches?: number;
  retryMs?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /**
   * Least time between the starts of two group jobs in this worker (default 0): under a steady
   * flow the events of this long gather into one batch (`BatchPacer`).
   */
  gatherMs?: number;
}

export interface ProjectionWorkers {
  queue: ProjectionQueue;
  worker: Worker;
  close(): Promise<void>;
}

/**
 * BullMQ worker for the projection jobs. Correctness lives in the checkpoints (row locks +
 * same-transaction writes); BullMQ only schedules.
 *
 * The group job (`GROUP_JOB`, the one the API wakes) runs the projectors as one group, as the
 * API's in-process dispatcher does (`catchUpGroup`, up to `maxBatches` batches, then it
 * re-enqueues itself while behind). A projector that fails in the group leaves it in this
 * worker: the group job goes on at once without it, and its own job (its name) runs it alone
 * (`catchUp`: stopped at its bad event, the error recorded on its checkpoint), re-enqueued with
 * exponential backoff; once its own job has caught up in this worker, it rejoins the group. The
 * worker's sweep wakes the group and the projectors running alone. A failure that is not a
 * projector's re-enqueues the group job with backoff.
 *
 * One group job, not a job per projector with events of its types: that would cost a probe
 * statement per NOTIFY in the API and, at 300 transfers/s, about 4 jobs and 4 transactions per
 * group commit in the worker.
 */
export async function startProjectionWorkers<DB extends ProjectionTables>(
  opts: ProjectionWorkerOptions<DB>,
): Promise<ProjectionWorkers> {
  const byName = new Map(opts.projectors.map((p) => [p.name, p]));
  const names = [...byName.keys()];
  const queue = new ProjectionQueue(opts.redisUrl, [GROUP_JOB], opts.logger);
  const retryMs = opts.retryMs ?? 500;
  const maxBatches = opts.maxBatches ?? 20;
  const backoff = (attempt: number) => Math.min(60_000, retryMs * 2 ** (attempt - 1));
  /** This worker's projectors that failed in the group: run by their own jobs until caught up. */
  const alone = new Set<string>();
  const pacer = new BatchPacer(opts.gatherMs ?? 0);
  await ensureCheckpoints(opts.db, names);

  const runGroup = async (job: Job<JobData>) => {
    const members = opts.projectors.filter((p) => !alone.has(p.name));
    if (!members.length) return;
    await pacer.wait();
    try {
      const result = await catchUpGroup(opts.db, members, { ...opts, maxBatches });
      if (!result.caughtUp) queue.wake([GROUP_JOB]);
    } catch (error) {
      if (error instanceof ProjectionFailure && byName.has(error.projector)) {
        // Nothing of the batch was committed: the others go on at once without it.
        alone.add(error.projector);
        queue.wake([error.projector]);
        queue.wake([GROUP_JOB]);
        return;
      }
      const attempt = (job.data.attempt ?? 0) + 1;
      const delay = backoff(attempt);
      opts.logger.error(
        { err: error, projectors: members.map((p) => p.name), retryInMs: delay },
        'projectors failed; retrying',
      );
      queue.wake([GROUP_JOB], delay, { attempt });
    }
  };

  const runAlone = async (job: Job<JobData>, projector: Projector) => {
    try {
      const result = await catchUp(opts.db, projector, { ...opts, maxBatches });
      if (!result.caughtUp) queue.wake([projector.name]);
      else if (alone.delete(projector.name)) queue.wake([GROUP_JOB]);
    } catch (error) {
      const attempt = (job.data.attempt ?? 0) + 1;
      const delay = backoff(attempt);
      opts.logger.error(
        { err: error, projector: projector.name, retryInMs: delay },
        'projector failed; retrying',
      );
      queue.wake([projector.name], delay, { attempt });
    }
  };

  const worker = new Worker(
    PROJECTION_QUEUE,
    async (job: Job<JobData>) => {
      if (job.name === GROUP_JOB) return runGroup(job);
      const projector = byName.get(job.name);
      if (projector) await runAlone(job, projector);
    },
    {
      connection: redisConnection(opts.redisUrl, 'worker'),
      // The group and the projectors running alone, side by side.
      concurrency: names.length + 1,
      // A crashed worker's job goes back to the queue within seconds (its lock is renewed
      // every lockDuration/2 while alive); correctness never depends on this lock.
      lockDuration: opts.lockDurationMs ?? 10_000,
      stalledInterval: opts.stalledIntervalMs ?? 5_000,
      maxStalledCount: 1000,
    },
  );
  worker.on('error', (err) => opts.logger.warn({ err }, 'projection worker error'));
  const sweep = setInterval(() => queue.wake([GROUP_JOB, ...alone]), opts.sweepMs ?? 3000);
  sweep.unref();
  queue.wake();
  return {
    queue,
    worker,
    async close() {
      clearInterval(sweep);
      pacer.hurry();
      await worker.close().catch(() => undefined);
      await queue.close();
    },
  };
}
