import { exitOnConfigError, parseConfig, type Config } from '@filiere/platform';
import { LedgerDatabaseUnavailable, openLedgerDatabase } from './database.js';
import { runLedgerCheck } from './check-run.js';

/**
 * `npm run ledger:check [projector…]`: replays each projector into a scratch
 * schema and compares it with the live tables; exit 1 on any difference.
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
    code = await runLedgerCheck(ledger.db, { names: process.argv.slice(2), print });
  } finally {
    await ledger.close();
  }
} catch (error) {
  if (!(error instanceof LedgerDatabaseUnavailable)) throw error;
  process.stderr.write(`${error.message}\n`);
}
process.exit(code);
