import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { PushPublisher } from '@filiere/projections';
import { writeTransactionsXlsx } from './xlsx.js';

export type ExportStatus = 'RUNNING' | 'READY' | 'FAILED';

export interface ExportJob {
  id: string;
  userId: string;
  walletId: string;
  status: ExportStatus;
  total: number;
  done: number;
  file: string;
  error?: string;
}

/** Finished files are kept this long, then removed. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * Large exports run in the background of the API process: the .xlsx is written to a
 * temporary file while `export.progress` pushes tell the user's room how far it is;
 * `export.ready` carries the download link. Jobs live in memory (a restart forgets them;
 * the user asks again).
 */
export class ExportJobs {
  private readonly jobs = new Map<string, ExportJob>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<any>,
    private readonly publish: PushPublisher,
  ) {}

  get(id: string): ExportJob | undefined {
    return this.jobs.get(id);
  }

  start(userId: string, walletId: string, total: number): ExportJob {
    const id = randomUUID();
    const job: ExportJob = {
      id,
      userId,
      walletId,
      status: 'RUNNING',
      total,
      done: 0,
      file: join(tmpdir(), `filiere-export-${id}.xlsx`),
    };
    this.jobs.set(id, job);
    const run = this.run(job).finally(() => this.running.delete(run));
    this.running.add(run);
    return job;
  }

  private async run(job: ExportJob): Promise<void> {
    const push = (type: string, data: unknown) =>
      this.publish([{ type, userIds: [job.userId], data }]).catch(() => undefined);
    try {
      await writeTransactionsXlsx(this.db, job.walletId, { filename: job.file }, async (done) => {
        job.done = done;
        await push('export.progress', { jobId: job.id, done, total: job.total });
      });
      job.status = 'READY';
      await push('export.ready', { jobId: job.id, url: downloadUrl(job.id) });
    } catch (error) {
      job.status = 'FAILED';
      job.error = error instanceof Error ? error.message : String(error);
      await push('export.failed', { jobId: job.id });
    }
    const timer = setTimeout(() => void this.forget(job.id), KEEP_MS);
    timer.unref();
    this.timers.add(timer);
  }

  private async forget(id: string): Promise<void> {
    const job = this.jobs.get(id);
    this.jobs.delete(id);
    if (job) await rm(job.file, { force: true });
  }

  /** Waits for running jobs (tests, shutdown) and removes every file. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
    for (const t of this.timers) clearTimeout(t);
    await Promise.all([...this.jobs.keys()].map((id) => this.forget(id)));
  }
}

export const downloadUrl = (jobId: string): string => `/api/transaction/export/${jobId}/download`;
