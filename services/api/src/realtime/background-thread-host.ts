import { Worker } from 'node:worker_threads';
import { Foreground, type Config, type Logger } from '@filiere/platform';
import type {
  FromBackgroundThread,
  BackgroundThreadData,
  ToBackgroundThread,
} from './background-thread.js';

export interface BackgroundThread {
  /** Wakes the projectors (after an append in this process: no wait for the NOTIFY). */
  wake(): void;
  /** Wakes one of the thread's jobs (work was just scheduled for it). */
  wakeJob(name: string): void;
  /** This thread's foreground work, which the background thread's payouts wait for. */
  foreground: Foreground;
  /** Resolves when every projector has read every event committed before the call. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * Starts the background thread (background-thread.ts) and answers its handle. A thread that
 * dies (an uncaught error, the process's memory) is logged and started again after a second:
 * checkpoints are in PostgreSQL, so a new thread goes on where the last one committed.
 */
export function startBackgroundThread(options: {
  config: Config;
  databaseUrl: string;
  logger: Logger;
  /** Nice value of the thread (Linux): its work yields to requests and commands. 0: none. */
  nice?: number;
  /** Events read per batch. */
  batchSize?: number;
}): BackgroundThread {
  const { logger } = options;
  const foreground = new Foreground();
  const data: BackgroundThreadData = {
    config: options.config,
    databaseUrl: options.databaseUrl,
    logLevel: logger.level,
    nice: options.nice ?? 0,
    batchSize: options.batchSize ?? 1000,
    foreground: foreground.buffer,
  };
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(
    typescript ? './background-thread.ts' : './background-thread.js',
    import.meta.url,
  );
  // The thread loads TypeScript through tsx as this process does (npm start runs
  // `node --import tsx`). Node does not run a thread's `--import` hooks, so the thread first
  // registers tsx's loader itself, then imports its module.
  const bootstrap = typescript
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`
    : undefined;
  let worker: Worker | undefined;
  let closing = false;
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  let closed: (() => void) | undefined;

  const start = () => {
    // A young generation of 3 × 64 MB, as the API's own (`--max-semi-space-size=64`): batches
    // keep their objects across awaits, and a small one promoted most of them to the old one.
    const resourceLimits = { maxYoungGenerationSizeMb: 192 };
    const thread = bootstrap
      ? new Worker(bootstrap, { eval: true, workerData: data, resourceLimits })
      : new Worker(entry, { workerData: data, resourceLimits });
    worker = thread;
    thread.on('message', (message: FromBackgroundThread) => {
      switch (message.type) {
        case 'log':
          relay(logger, message.line);
          break;
        case 'ready':
          logger.debug({ priority: message.priority }, 'background thread ready');
          break;
        case 'idle':
          waiting.get(message.id)?.();
          waiting.delete(message.id);
          break;
        case 'closed':
          closed?.();
          break;
      }
    });
    thread.on('error', (err) => logger.error({ err }, 'background thread failed'));
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      closed?.();
      if (closing) return;
      logger.error({ code }, 'background thread stopped; starting it again');
      setTimeout(() => {
        if (!closing) start();
      }, 1000).unref();
      // Callers waiting for the old thread would wait for ever: the new one answers them.
      for (const [id] of waiting) worker?.postMessage({ type: 'idle', id });
    });
  };
  start();
  const send = (message: ToBackgroundThread) => worker?.postMessage(message);

  return {
    wake: () => send({ type: 'wake' }),
    wakeJob: (name) => send({ type: 'wake-job', name }),
    foreground,
    idle: () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        send({ type: 'idle', id });
      }),
    async close() {
      closing = true;
      const thread = worker;
      if (!thread) return;
      await new Promise<void>((resolve) => {
        closed = resolve;
        const timer = setTimeout(() => void thread.terminate().then(() => resolve()), 10_000);
        timer.unref();
        thread.postMessage({ type: 'close' } satisfies ToBackgroundThread);
      });
      await thread.terminate();
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
    },
  };
}

/** Writes a line of the thread's logger through the API's logger (its level and destination). */
function relay(logger: Logger, line: string): void {
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
