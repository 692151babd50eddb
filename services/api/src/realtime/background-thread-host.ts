import {
  Foreground,
  startSupervisedThread,
  threadEntry,
  type Config,
  type Logger,
} from '@filiere/platform';
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
  /** Least time between two runs of the projectors. */
  gatherMs?: number;
}): BackgroundThread {
  const foreground = new Foreground();
  const data: BackgroundThreadData = {
    config: options.config,
    databaseUrl: options.databaseUrl,
    logLevel: options.logger.level,
    nice: options.nice ?? 0,
    batchSize: options.batchSize ?? 1000,
    gatherMs: options.gatherMs ?? 0,
    foreground: foreground.buffer,
  };
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  const thread = startSupervisedThread<ToBackgroundThread, FromBackgroundThread>({
    entry: threadEntry(import.meta.url, './background-thread'),
    workerData: data,
    logger: options.logger,
    name: 'projections',
    // A young generation of 3 × 64 MB, as the API's own (`--max-semi-space-size=64`): batches
    // keep their objects across awaits, and a small one would promote most of them to the old one.
    resourceLimits: { maxYoungGenerationSizeMb: 192 },
    onMessage: (message) => {
      if (message.type === 'ready') {
        options.logger.debug({ priority: message.priority }, 'background thread ready');
      } else if (message.type === 'idle') {
        waiting.get(message.id)?.();
        waiting.delete(message.id);
      }
    },
    // Callers waiting for a thread that died would wait for ever: its successor answers them.
    onStart: (post) => {
      for (const id of waiting.keys()) post({ type: 'idle', id });
    },
  });

  return {
    wake: () => thread.post({ type: 'wake' }),
    wakeJob: (name) => thread.post({ type: 'wake-job', name }),
    foreground,
    idle: () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        thread.post({ type: 'idle', id });
      }),
    async close() {
      await thread.close();
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
    },
  };
}
