import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * The server's launcher (`npm start`'s and `npm run worker`'s): the entry runs from the
 * server's build in the launcher's own process, so the child's pid is node itself (a SIGKILL
 * hits the real process).
 */
const LAUNCHER = path.join(ROOT, 'scripts/run.mjs');

export const API_ENTRY = path.join(ROOT, 'services/api/src/main.ts');
export const WORKER_ENTRY = path.join(ROOT, 'services/worker/src/main.ts');

/**
 * One child process of the bank test (an API or a worker), started by the server's launcher,
 * its output appended to a log file. `start()` waits until it is ready: the API answers
 * `/api/health`, the worker logged "worker started".
 */
export class ManagedProcess {
  child: ChildProcess | undefined;
  private log: WriteStream | undefined;
  starts = 0;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
    private readonly healthUrl?: string,
  ) {}

  get alive(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(timeoutMs = 120_000): Promise<void> {
    this.log ??= createWriteStream(this.logFile, { flags: 'a' });
    this.log.write(`\n=== ${this.name} start #${++this.starts} ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [LAUNCHER, this.entry], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const log = this.log;
    child.stdout.on('data', (chunk: Buffer) => log.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => log.write(chunk));
    const startedAt = Date.now();
    const mark = this.logSize();
    for (;;) {
      if (!this.alive) throw new Error(`${this.name} exited during start-up (see ${this.logFile})`);
      if (await this.ready(mark)) return;
      if (Date.now() - startedAt > timeoutMs) {
        throw new Error(`${this.name} not ready after ${timeoutMs} ms (see ${this.logFile})`);
      }
      await sleep(200);
    }
  }

  /** SIGKILL, and wait for the exit. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM (clean stop), SIGKILL after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.alive) return;
    const exited = this.signal('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** Synchronous last resort (process 'exit' handler). */
  killNow(): void {
    if (this.alive) this.child!.kill('SIGKILL');
  }

  closeLog(): void {
    this.log?.end();
    this.log = undefined;
  }

  private signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  private async ready(logMark: number): Promise<boolean> {
    if (this.healthUrl) {
      try {
        const res = await fetch(this.healthUrl, { signal: AbortSignal.timeout(1_000) });
        return res.status === 200;
      } catch {
        return false;
      }
    }
    return this.logText(logMark).includes('worker started');
  }

  private logSize(): number {
    try {
      return readFileSync(this.logFile).length;
    } catch {
      return 0;
    }
  }

  private logText(from: number): string {
    try {
      return readFileSync(this.logFile).subarray(from).toString('utf8');
    } catch {
      return '';
    }
  }
}
