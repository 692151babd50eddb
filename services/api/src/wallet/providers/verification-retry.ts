import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from '@filiere/platform';

/** One background check of a PENDING supply with the provider. */
export interface VerificationJob {
  reference: string;
  transactionId: string;
  /** 1 for the first retry. */
  attempt: number;
}

/**
 * What one check concluded: FINAL when the supply is SUCCESS or FAILED (stop), PENDING to
 * try again later. A thrown error (e.g. ProviderUnavailableError) counts as PENDING.
 */
export type VerificationOutcome = 'FINAL' | 'PENDING';

export interface Backoff {
  baseMs: number;
  factor: number;
  maxMs: number;
  maxAttempts: number;
}

/** 5 s, 10 s, 20 s … capped at 10 min; about 3 h in all before giving up. */
export const DEFAULT_VERIFICATION_BACKOFF: Backoff = {
  baseMs: 5_000,
  factor: 2,
  maxMs: 10 * 60_000,
  maxAttempts: 24,
};

/** The delay before attempt `attempt` (1-based), or null once attempts are exhausted. */
export function verificationDelayMs(
  attempt: number,
  backoff: Backoff = DEFAULT_VERIFICATION_BACKOFF,
): number | null {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > backoff.maxAttempts) return null;
  return Math.min(backoff.maxMs, Math.round(backoff.baseMs * backoff.factor ** (attempt - 1)));
}

export interface VerificationRetrierOptions {
  /** Runs one check (verify with the provider, then the verifySupply command). */
  check: (job: VerificationJob) => Promise<VerificationOutcome>;
  /** Called when attempts run out with the supply still PENDING (e.g. to fail it). */
  onGiveUp?: (job: VerificationJob) => Promise<void>;
  backoff?: Backoff;
  /** With a Redis URL, retries are BullMQ delayed jobs; without, in-process timers. */
  redisUrl?: string;
  logger?: Logger;
}

export const VERIFICATION_QUEUE = 'filiere-supply-verification';

/**
 * Retries the verification of PENDING supplies with exponential backoff until final. With
 * Redis the schedule survives restarts (BullMQ delayed jobs, one job id per reference and
 * attempt, so a double enqueue runs once); without Redis it uses timers in this process.
 */
export class VerificationRetrier {
  private readonly backoff: Backoff;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly queue: Queue | undefined;
  private readonly worker: Worker | undefined;
  private closed = false;

  constructor(private readonly options: VerificationRetrierOptions) {
    this.backoff = options.backoff ?? DEFAULT_VERIFICATION_BACKOFF;
    if (options.redisUrl) {
      this.queue = new Queue(VERIFICATION_QUEUE, {
        connection: connection(options.redisUrl, false),
      });
      this.queue.on('error', () => undefined);
      this.worker = new Worker(
        VERIFICATION_QUEUE,
        (job: Job<VerificationJob>) => this.run(job.data),
        {
          connection: connection(options.redisUrl, true),
          concurrency: 8,
        },
      );
      this.worker.on('error', (err) => options.logger?.warn({ err }, 'verification worker error'));
    }
  }

  /** Schedules the first background check of a supply left PENDING. */
  async enqueue(reference: string, transactionId: string): Promise<void> {
    await this.schedule({ reference, transactionId, attempt: 1 });
  }

  /** Runs one check now and schedules the next one if still pending. */
  async run(job: VerificationJob): Promise<VerificationOutcome> {
    let outcome: VerificationOutcome;
    try {
      outcome = await this.options.check(job);
    } catch (err) {
      this.options.logger?.warn(
        { err, reference: job.reference },
        'supply verification failed; retrying',
      );
      outcome = 'PENDING';
    }
    if (outcome === 'PENDING') await this.schedule({ ...job, attempt: job.attempt + 1 });
    return outcome;
  }

  private async schedule(job: VerificationJob): Promise<void> {
    if (this.closed) return;
    const delay = verificationDelayMs(job.attempt, this.backoff);
    if (delay === null) {
      await this.options.onGiveUp?.(job);
      return;
    }
    if (this.queue) {
      await this.queue.add('verify', job, {
        delay,
        jobId: `verify-${job.reference}-${job.attempt}`,
        removeOnComplete: true,
        removeOnFail: true,
      });
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(job);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** Stops scheduling; pending in-process timers are dropped (BullMQ jobs stay in Redis). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.worker?.close().catch(() => undefined);
    await this.queue?.close().catch(() => undefined);
  }
}

function connection(redisUrl: string, forWorker: boolean): ConnectionOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) } : {}),
    maxRetriesPerRequest: forWorker ? null : 1,
  };
}
