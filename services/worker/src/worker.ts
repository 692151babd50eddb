import type { Config, Logger } from '@filiere/platform';

export interface WorkerOptions {
  config: Config;
  databaseUrl: string;
  redisUrl: string;
  logger: Logger;
}

export interface RunningWorker {
  close(): Promise<void>;
}

/** Starts the BullMQ workers (issue 3 wires the projection runner here). */
export async function runWorker(_options: WorkerOptions): Promise<RunningWorker> {
  return { close: async () => undefined };
}
