import { createLogger, parseConfig } from '@filiere/platform';
import { countingProjector } from '@filiere/projections/testing';
import { runWorker } from '../worker.js';

/**
 * A worker process running the test counting projector (for the crash test):
 * PREFIX names its tables, SLOW_MS pauses inside each batch's transaction so a
 * SIGKILL lands mid-batch.
 */
const config = parseConfig();
const prefix = process.env.PREFIX ?? 'k';
const slowMs = Number(process.env.SLOW_MS ?? 0);
const base = countingProjector(prefix);
const worker = await runWorker({
  config,
  databaseUrl: config.DATABASE_URL!,
  redisUrl: config.REDIS_URL!,
  logger: createLogger(config.LOG_LEVEL, false),
  decode: null,
  batchSize: Number(process.env.BATCH ?? 50),
  projectors: [
    {
      ...base,
      async apply(trx, events, ctx) {
        await base.apply(trx, events, ctx);
        if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
      },
    },
  ],
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => void worker.close().then(() => process.exit(0)));
