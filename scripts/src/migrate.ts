import {
  createDb,
  createLogger,
  exitOnConfigError,
  migrateToLatest,
  parseConfig,
} from '@filiere/platform';
import { allMigrations } from '@filiere/api';

/** `npm run migrate`: applies pending migrations to DATABASE_URL (Docker, operations). */
const config = (() => {
  try {
    return parseConfig();
  } catch (error) {
    return exitOnConfigError(error);
  }
})();
if (!config.DATABASE_URL) {
  process.stderr.write('Invalid configuration: DATABASE_URL is required for npm run migrate\n');
  process.exit(1);
}
const logger = createLogger(config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL, { max: 1 });
try {
  const applied = await migrateToLatest(db, allMigrations);
  logger.info({ applied }, applied.length ? 'migrations applied' : 'database already up to date');
} finally {
  await db.destroy();
}
