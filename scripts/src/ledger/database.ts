import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import {
  createPool,
  startEmbeddedPostgres,
  withDatabase,
  type Config,
  type EmbeddedPostgresHandle,
} from '@filiere/platform';
import type { ProjectionTables } from '@filiere/projections';

/** The ledger database cannot be opened for a reason the operator can act on (exit 2). */
export class LedgerDatabaseUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerDatabaseUnavailable';
  }
}

/**
 * int8 as a number when JavaScript holds it exactly, else as its decimal text. The API's
 * parser refuses such values (RangeError); a ledger command must still read and print any
 * row — a ledger written before the amount ceilings may hold balances past 2^53.
 */
export function parseLedgerInt8(value: string): number | string {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : value;
}

const ledgerTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? parseLedgerInt8
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A database handle for the ledger commands (int8 read with parseLedgerInt8), typed with the
 * tables they read: the event log and the projections' checkpoints (the engine's functions
 * do the rest; positions stay far below 2^53, so they read as numbers).
 */
export function createLedgerDb(url: string): Kysely<ProjectionTables> {
  const pool = createPool(url, { max: 2, applicationName: 'filiere-ledger' });
  pool.options.types = ledgerTypes;
  return new Kysely<ProjectionTables>({ dialect: new PostgresDialect({ pool }) });
}

export interface LedgerDatabase {
  db: Kysely<ProjectionTables>;
  close(): Promise<void>;
}

/**
 * Opens the product's database for a ledger script: DATABASE_URL when set,
 * else the embedded PostgreSQL in $DATA_DIR/postgres, started for the script
 * and stopped by close(). Refuses when `npm start` already runs on that directory.
 */
export async function openLedgerDatabase(config: Config): Promise<LedgerDatabase> {
  if (config.DATABASE_URL) {
    const db = createLedgerDb(config.DATABASE_URL);
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
  const db = createLedgerDb(withDatabase(postgres.url, 'postgres'));
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
