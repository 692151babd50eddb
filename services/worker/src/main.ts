import {
  createLogger,
  exitOnConfigError,
  lowerThreadPriority,
  parseConfig,
  type Config,
} from '@filiere/platform';
import { runWorker } from './worker.js';

/**
 * `npm run worker`: BullMQ workers for the projections, the wallet's jobs and the
 * .xlsx exports. Needs DATABASE_URL and REDIS_URL; without Redis, `npm start`
 * runs the same projectors in-process and no worker is needed.
 */
let config: Config;
try {
  config = parseConfig();
} catch (error) {
  exitOnConfigError(error);
}
if (!config.DATABASE_URL || !config.REDIS_URL) {
  process.stderr.write('Invalid configuration: npm run worker needs DATABASE_URL and REDIS_URL\n');
  process.exit(1);
}
const logger = createLogger(config.LOG_LEVEL);
// Background work, as the API's background thread (BACKGROUND_NICE): on a machine it shares with
// an API, it yields the cores to requests and commands, and so do its PostgreSQL server
// processes (a local server). Set first, so the threads Node starts later inherit it.
const nice = lowerThreadPriority(config.BACKGROUND_NICE);
const worker = await runWorker({
  config,
  databaseUrl: config.DATABASE_URL,
  redisUrl: config.REDIS_URL,
  logger,
  ...(nice !== null ? { nice } : {}),
});
const stop = async (signal: string) => {
  logger.info({ signal }, 'worker stopping');
  await worker.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
logger.info({ nice }, 'worker started');
