import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import {
  createDb,
  startEmbeddedPostgres,
  withDatabase,
  type Config,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';

/** The ledger database cannot be opened for a reason the operator can act on (exit 2). */
export class LedgerDatabaseUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerDatabaseUnavailable';
  }
}

export interface LedgerDatabase {
  db: Kysely<any>;
  close(): Promise<void>;
}

/**
 * Opens the product's database for a ledger script: DATABASE_URL when set,
 * else the embedded PostgreSQL in $DATA_DIR/postgres, started for the script
 * and stopped by close(). Refuses when `npm start` already runs on that directory.
 */
export async function openLedgerDatabase(config: Config): Promise<LedgerDatabase> {
  if (config.DATABASE_URL) {
    const db = createDb(config.DATABASE_URL, { max: 2, applicationName: 'filiere-ledger' });
    return { db, close: () => db.destroy() };
  }
  const dataDir = path.resolve(config.DATA_DIR, 'postgres');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new LedgerDatabaseUnavailable(
      `No embedded database in ${dataDir}: run "npm start" once, or set DATABASE_URL.`,
    );
  }
  const pid = runningPid(dataDir);
  if (pid) {
    throw new LedgerDatabaseUnavailable(
      `"npm start" is running on ${dataDir} (PostgreSQL pid ${pid}): stop it first, ` +
        'or set DATABASE_URL to its database.',
    );
  }
  const postgres: EmbeddedPostgresHandle = await startEmbeddedPostgres({ dataDir });
  const db = createDb(withDatabase(postgres.url, 'postgres'), {
    max: 2,
    applicationName: 'filiere-ledger',
  });
  return {
    db,
    async close() {
      await db.destroy();
      await postgres.stop();
    },
  };
}

function runningPid(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user, when we are not root).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
