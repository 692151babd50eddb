import {
  createDb,
  createLogger,
  exitOnConfigError,
  parseConfig,
  type Config,
} from '@filiere/platform';
import type { Database } from './database.js';
import { startServer, type RunningServer } from './server.js';

/**
 * A plain API process: configuration, database pool, HTTP server (and the projection
 * dispatch, BullMQ with REDIS_URL). No migrations, no demo data, no embedded PostgreSQL:
 * it serves an existing database, so that several of them can run side by side (the bank
 * test starts two). `npm start` is the all-in-one entry.
 */
let config: Config;
try {
  config = parseConfig();
} catch (error) {
  exitOnConfigError(error);
}
if (!config.DATABASE_URL) {
  process.stderr.write('Invalid configuration: services/api/src/main.ts needs DATABASE_URL\n');
  process.exit(1);
}
const logger = createLogger(config.LOG_LEVEL);
const db = createDb<Database>(config.DATABASE_URL, { max: 20, applicationName: 'filiere-api' });

let server: RunningServer | undefined;
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'api stopping');
  await server?.close().catch((err: unknown) => logger.error({ err }, 'server close failed'));
  await db.destroy().catch(() => undefined);
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

try {
  server = await startServer(config, db, logger, { databaseUrl: config.DATABASE_URL });
  logger.info({ url: config.PUBLIC_URL }, 'api listening');
} catch (error) {
  logger.error({ err: error }, 'api start-up failed');
  await db.destroy().catch(() => undefined);
  process.exit(1);
}
