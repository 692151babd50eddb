import path from 'node:path';
import {
  createDb,
  createLogger,
  exitOnConfigError,
  migrateToLatest,
  parseConfig,
  startEmbeddedPostgres,
  withDatabase,
  type Config,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import { allMigrations, startServer, WEB_DIST_DIR, type RunningServer } from '@filiere/api';
import { demoAccounts, DEMO_PASSWORD } from '@filiere/api/identity';
import { loadDemoData } from './demo/load.js';
import { ensureWebBuilt } from './web-build.js';

/**
 * `npm start`: PostgreSQL (embedded unless DATABASE_URL is set), migrations,
 * demo data (never in production), the web build if missing, then API + web on
 * one port. SIGINT/SIGTERM stop everything, PostgreSQL included.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger(config.LOG_LEVEL);

  let postgres: EmbeddedPostgresHandle | undefined;
  let server: RunningServer | undefined;
  let db: ReturnType<typeof createDb> | undefined;
  let stopping = false;
  /** Stops what runs, then exits with `code`: 0 on a signal, 1 after a failed start. */
  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await server?.close().catch((e) => logger.error({ err: e }, 'server close failed'));
    await db?.destroy().catch(() => undefined);
    await postgres?.stop().catch((e) => logger.error({ err: e }, 'postgres stop failed'));
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const dataDir = path.resolve(config.DATA_DIR, 'postgres');
      logger.info({ dataDir }, 'starting embedded PostgreSQL');
      postgres = await startEmbeddedPostgres({
        dataDir,
        onLog: (line) => logger.debug({ postgres: line.trim() }),
      });
      if (postgres.stoppedOrphan) {
        logger.warn(
          { pid: postgres.stoppedOrphan },
          'stopped the PostgreSQL a killed start left running on this data directory',
        );
      }
      databaseUrl = withDatabase(postgres.url, 'postgres');
    }
    db = createDb(databaseUrl, { max: 20, applicationName: 'filiere-api' });
    const applied = await migrateToLatest(db, allMigrations);
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

    if (config.NODE_ENV !== 'production') {
      const loaded = await loadDemoData({ db, logger });
      if (loaded.length) logger.info({ steps: loaded }, 'demo data loaded');
    }

    await ensureWebBuilt(WEB_DIST_DIR, (msg) => logger.info(msg));
    server = await startServer(config, db, logger, { databaseUrl });
    printBanner(config);
  } catch (error) {
    // A signal's stop is under way (it closed what the start was using): it exits when done.
    if (stopping) return;
    logger.error({ err: error }, 'start-up failed');
    await stop('startup-failure', 1);
  }
}

function printBanner(config: Config): void {
  const lines = [
    '',
    `  Filière est prêt : ${config.PUBLIC_URL}`,
    `  API : ${config.PUBLIC_URL}/api  ·  documentation : ${config.PUBLIC_URL}/api/docs`,
    '',
  ];
  if (config.NODE_ENV !== 'production') {
    lines.push(`  Comptes de démonstration (mot de passe ${DEMO_PASSWORD}) :`);
    for (const account of demoAccounts)
      lines.push(`    ${account.email.padEnd(32)} ${account.role}`);
    lines.push('');
  }
  lines.push('  Ctrl-C pour arrêter.', '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

void main();
