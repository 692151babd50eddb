import { exitOnConfigError, parseConfig, type Config } from '@filiere/platform';
import { LedgerDatabaseUnavailable, openLedgerDatabase } from './database.js';
import { runLedgerRebuild } from './rebuild-run.js';

/**
 * `npm run ledger:rebuild [projector…]`: rebuilds read tables from position 0
 * into fresh tables and swaps them in (readers never see half a rebuild).
 * DATABASE_URL, or the embedded PostgreSQL in $DATA_DIR/postgres.
 */
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
    code = await runLedgerRebuild(ledger.db, { names: process.argv.slice(2), print });
  } finally {
    await ledger.close();
  }
} catch (error) {
  if (!(error instanceof LedgerDatabaseUnavailable)) throw error;
  process.stderr.write(`${error.message}\n`);
}
process.exit(code);
