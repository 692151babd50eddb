import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { persistently, type Logger } from '@filiere/platform';
import type { PushPublisher } from '@filiere/projections';
import type { WalletPushType } from '../pushes.js';
import { ExportStore, type ClaimedExport, type WalletExportsTables } from './export-store.js';
import { writeTransactionsXlsx } from './xlsx.js';

export interface ExportRunnerOptions {
  /** Files go to `<dataDir>/exports`. */
  dataDir: string;
  logger?: Logger;
  /** A claimed job is leased this long, renewed while it is written (default 30 s). */
  leaseMs?: number;
  /** Progress is saved and pushed at most this often (default 500 ms). */
  progressMs?: number;
  /** A job claimed this many times (failed or interrupted each time) is FAILED (default 3). */
  maxAttempts?: number;
  /** Jobs and their files are removed this long after creation (default 24 h). */
  keepMs?: number;
  /** zlib level of the .xlsx (default 4). */
  level?: number;
  /** Rows per cursor FETCH (default 1,000). */
  pageSize?: number;
  /** Tests only: a pause after each page, to be caught mid-export. */
  pageDelayMs?: number;
}

/** Raised inside a run when another runner took the job over (this lease ran out). */
class LeaseLost extends Error {}

export const EXPORTS_DIR = 'exports';
export const downloadUrl = (jobId: string): string => `/api/transaction/export/${jobId}/download`;

/**
 * Runs the background exports of `wallet_exports`, in the API process (no REDIS_URL) or in
 * the worker (BullMQ wake-ups): claims a job, writes its .xlsx to `<id>.<attempt>.part`,
 * saving and pushing progress (`export.progress`) to the owner's room, then renames it to
 * `<id>.xlsx` and marks the job READY (`export.ready` with the download URL) — once, fenced
 * by the claim's token. A failed run (a database restart breaks its cursor) gives the job
 * back for another claim; after `maxAttempts` claims it is FAILED (`export.failed`). The
 * outcome is written through a database restart (`persistently`).
 */
export class ExportRunner<DB extends WalletExportsTables = WalletExportsTables> {
  readonly store: ExportStore<DB>;
  readonly dir: string;
  private readonly leaseMs: number;
  private readonly progressMs: number;
  private readonly maxAttempts: number;
  private readonly keepMs: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly publish: PushPublisher,
    private readonly options: ExportRunnerOptions,
  ) {
    this.store = new ExportStore(db);
    this.dir = path.resolve(options.dataDir, EXPORTS_DIR);
    this.leaseMs = options.leaseMs ?? 30_000;
    this.progressMs = options.progressMs ?? 500;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.keepMs = options.keepMs ?? 24 * 60 * 60_000;
  }

  /** The absolute path of a READY job's file. */
  fileOf(relative: string): string {
    return path.resolve(this.options.dataDir, relative);
  }

  private push(userId: string, type: WalletPushType, data: unknown): Promise<void> {
    return this.publish([{ type, userIds: [userId], data }]).catch((err: unknown) => {
      this.options.logger?.warn({ err, type }, 'export push failed');
    });
  }

  /** Claims and runs one job; returns how many ran (0 or 1). */
  async runDue(): Promise<number> {
    const job = await this.store.claim(this.leaseMs, this.maxAttempts);
    if (!job) return 0;
    await this.run(job);
    return 1;
  }

  private async run(job: ClaimedExport): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await this.removeParts(job.id);
    const part = path.join(this.dir, `${job.id}.${job.attempt}.part`);
    const file = path.join(EXPORTS_DIR, `${job.id}.xlsx`);
    let last = 0;
    let pushed = -1;
    const progress = async (done: number) => {
      if (!(await this.store.heartbeat(job, done, this.leaseMs))) throw new LeaseLost();
      await this.push(job.userId, 'export.progress', { jobId: job.id, done, total: job.total });
      pushed = done;
    };
    try {
      const rows = await writeTransactionsXlsx(
        this.db,
        job.walletId,
        { filename: part },
        async (done) => {
          if (this.options.pageDelayMs) await sleep(this.options.pageDelayMs);
          if (Date.now() - last < this.progressMs) return;
          last = Date.now();
          await progress(done);
        },
        {
          ...(this.options.level === undefined ? {} : { level: this.options.level }),
          ...(this.options.pageSize === undefined ? {} : { pageSize: this.options.pageSize }),
        },
      );
      if (pushed !== rows) await progress(rows);
      await rename(part, this.fileOf(file));
      if (await persistently(() => this.store.finish(job, rows, file))) {
        await this.push(job.userId, 'export.ready', { jobId: job.id, url: downloadUrl(job.id) });
      }
    } catch (error) {
      await rm(part, { force: true });
      if (error instanceof LeaseLost) {
        this.options.logger?.warn({ job: job.id }, 'export taken over by another runner');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempt < this.maxAttempts) {
        this.options.logger?.warn({ err: error, job: job.id }, 'export will be tried again');
        await persistently(() => this.store.retry(job, message));
        return;
      }
      this.options.logger?.error({ err: error, job: job.id }, 'export failed');
      if (await persistently(() => this.store.fail(job, message))) {
        await this.push(job.userId, 'export.failed', { jobId: job.id });
      }
    }
  }

  /** Part files of earlier attempts of a job (their runner died). */
  private async removeParts(id: string): Promise<void> {
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(`${id}.`) && name.endsWith('.part')) {
        await rm(path.join(this.dir, name), { force: true });
      }
    }
  }

  /**
   * Removes jobs (and their files) older than the keeping time, and files as old that no
   * job names; returns how many jobs went.
   */
  async sweep(now = new Date()): Promise<number> {
    const expired = await this.store.expire(new Date(now.getTime() - this.keepMs));
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return expired.length;
    }
    const known = await this.store.ids();
    const gone = new Set(expired);
    for (const name of names) {
      const id = name.split('.')[0]!;
      if (gone.has(id)) {
        await rm(path.join(this.dir, name), { force: true });
        continue;
      }
      if (known.has(id)) continue;
      // Unknown here, maybe another database's (a shared DATA_DIR): only once as old.
      const file = path.join(this.dir, name);
      const modified = await stat(file).then(
        (s) => s.mtimeMs,
        () => Infinity,
      );
      if (modified < now.getTime() - this.keepMs) await rm(file, { force: true });
    }
    return expired.length;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
