import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker, type WorkerOptions } from 'node:worker_threads';
import type pg from 'pg';
import { createPool } from './db.js';
import { createLineLogger, type Logger } from './logger.js';
import { lowerServerPriority, lowerThreadPriority } from './priority.js';

/** What every supervised thread may send besides its own messages. */
export type ThreadLine = { type: 'log'; line: string } | { type: 'closed' };

export interface SupervisedThread<In> {
  /** Sends a message to the running thread (dropped while it is being started again). */
  post(message: In): void;
  /**
   * Asks the thread to finish (`{ type: 'close' }`, answered by `{ type: 'closed' }`), then
   * terminates it; after `graceMs` without an answer it is terminated anyway.
   */
  close(graceMs?: number): Promise<void>;
}

export interface SupervisedThreadOptions<In, Out> {
  /** The thread's module: `threadEntry(import.meta.url, './x')` beside the caller. */
  entry: URL;
  workerData: unknown;
  /** Where the thread's log lines go (`{ type: 'log', line }`, a JSON line of its pino logger). */
  logger: Logger;
  /** What the thread is, in the log lines about it. */
  name: string;
  resourceLimits?: WorkerOptions['resourceLimits'];
  /** The thread's other messages. */
  onMessage?: (message: Out) => void;
  /** After every start (the first and each restart), with the new thread's `post`. */
  onStart?: (post: (message: In) => void) => void;
  /** Delay before a thread that stopped on its own is started again (default 1 s). */
  restartMs?: number;
}

/** The module `name` beside `importMetaUrl`, `.ts` when the caller runs from source (tsx). */
export function threadEntry(importMetaUrl: string, name: string): URL {
  return new URL(`${name}${importMetaUrl.endsWith('.ts') ? '.ts' : '.js'}`, importMetaUrl);
}

/**
 * Where the server's build is (`scripts/run.mjs` defines it in the modules it builds): the
 * repository's root and the build's folder, the built module of `<root>/a/b.ts` being
 * `<outdir>/a/b.js`. Undefined when running from source (tests, tsx).
 */
declare const __FILIERE_SERVER_BUILD__: { root: string; outdir: string } | undefined;
const serverBuild =
  typeof __FILIERE_SERVER_BUILD__ === 'undefined' ? undefined : __FILIERE_SERVER_BUILD__;

/** The built module of a `.ts` thread entry, when this process runs from a build that has it. */
function builtThread(entry: URL): URL | undefined {
  if (!serverBuild) return undefined;
  const relative = path.relative(serverBuild.root, fileURLToPath(entry));
  const built = path.join(serverBuild.outdir, relative.replace(/\.ts$/, '.js'));
  return existsSync(built) ? pathToFileURL(built) : undefined;
}

/**
 * Starts a worker thread on `entry`. A process running from the server's build starts the
 * thread's built module. Otherwise Node runs no `--import` hook in a thread, so a `.ts` entry
 * first registers tsx's loader itself (as `node --import tsx` does for the process), then
 * imports its module.
 */
export function spawnThread(entry: URL, options: WorkerOptions): Worker {
  if (!entry.href.endsWith('.ts')) return new Worker(entry, options);
  const built = builtThread(entry);
  if (built) return new Worker(built, options);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * A worker thread kept running: its log lines go to `logger`, and a thread that stops on its
 * own (an uncaught error, its memory) is logged and started again after `restartMs`. Whatever
 * it keeps must be in PostgreSQL (checkpoints, job rows): a new thread goes on from there.
 */
export function startSupervisedThread<In, Out>(
  options: SupervisedThreadOptions<In, Out>,
): SupervisedThread<In> {
  const { logger, name } = options;
  let worker: Worker | undefined;
  let closing = false;
  let closed: (() => void) | undefined;

  const start = () => {
    const thread = spawnThread(options.entry, {
      workerData: options.workerData,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
    worker = thread;
    thread.on('message', (message: Out | ThreadLine) => {
      const line = message as ThreadLine;
      if (line.type === 'log') relayLogLine(logger, line.line);
      else if (line.type === 'closed') closed?.();
      else options.onMessage?.(message as Out);
    });
    thread.on('error', (err) => logger.error({ err, thread: name }, 'thread failed'));
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      closed?.();
      if (closing) return;
      logger.error({ code, thread: name }, 'thread stopped; starting it again');
      setTimeout(() => {
        if (!closing) start();
      }, options.restartMs ?? 1000).unref();
    });
    options.onStart?.((message) => thread.postMessage(message));
  };
  start();

  return {
    post: (message) => worker?.postMessage(message),
    async close(graceMs = 10_000) {
      closing = true;
      const thread = worker;
      if (!thread) return;
      await new Promise<void>((resolve) => {
        closed = resolve;
        const timer = setTimeout(() => void thread.terminate().then(() => resolve()), graceMs);
        timer.unref();
        thread.postMessage({ type: 'close' });
      });
      await thread.terminate();
    },
  };
}

const LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Writes a line of a thread's pino logger through this thread's logger (its level, its output). */
export function relayLogLine(logger: Logger, line: string): void {
  try {
    const {
      level,
      msg,
      time: _time,
      pid: _pid,
      hostname: _host,
      ...fields
    } = JSON.parse(line) as {
      level: number;
      msg?: string;
      time?: number;
      pid?: number;
      hostname?: string;
    } & Record<string, unknown>;
    logger[LEVELS[level] ?? 'info'](fields, msg ?? '');
  } catch {
    logger.info(line);
  }
}

/** What every thread of ours is started with (its `workerData` extends it). */
export interface ThreadData {
  databaseUrl: string;
  /** The level of the supervisor's logger. */
  logLevel: string;
  /** Nice value of the thread and of its PostgreSQL server processes (Linux; 0: unchanged). */
  nice: number;
}

/**
 * Inside a supervised thread: its logger (lines sent to the supervisor as `{ type: 'log' }`,
 * marked `thread: name`), its priority lowered to `nice` (null: unchanged), and its pool, whose
 * PostgreSQL server processes run at that priority too (a local server only).
 */
export function threadResources(
  options: ThreadData & {
    name: string;
    /** Connections of the thread's pool. */
    max: number;
  },
): { logger: Logger; priority: number | null; pool: pg.Pool } {
  const port = parentPort;
  if (!port) throw new Error('threadResources() runs inside a worker thread');
  const line: (text: string) => void = (text) =>
    port.postMessage({ type: 'log', line: text } satisfies ThreadLine);
  const logger = createLineLogger(options.logLevel, line, { thread: options.name });
  const priority = lowerThreadPriority(options.nice);
  const pool = createPool(options.databaseUrl, {
    max: options.max,
    applicationName: `filiere-${options.name}`,
  });
  if (priority !== null) lowerServerPriority(pool, options.databaseUrl, priority);
  return { logger, priority, pool };
}
