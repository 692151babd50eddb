import type { Kysely } from 'kysely';
import type { ProjectionTables } from '@filiere/projections';
import { exitOnConfigError, parseConfig, type Config } from '@filiere/platform';
import { LedgerDatabaseUnavailable, openLedgerDatabase } from './database.js';

/**
 * The shared body of the `ledger:*` commands: configuration (one-line error),
 * DATABASE_URL or the embedded PostgreSQL, the command, then exit with its code
 * (2 when the database cannot be opened, e.g. "npm start" holds it).
 */
export async function runLedgerCli(
  run: (db: Kysely<ProjectionTables>, print: (line: string) => void) => Promise<number>,
): Promise<never> {
  let config: Config;
  try {
    config = parseConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let code = 2;
  try {
    const ledger = await openLedgerDatabase(config);
    try {
      code = await run(ledger.db, print);
    } finally {
      await ledger.close();
    }
  } catch (error) {
    if (!(error instanceof LedgerDatabaseUnavailable)) throw error;
    process.stderr.write(`${error.message}\n`);
  }
  process.exit(code);
}
