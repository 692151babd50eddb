import { exitOnConfigError, parseConfig, type Config } from '@filiere/platform';
import { LedgerDatabaseUnavailable, openLedgerDatabase } from './database.js';
import { runLedgerVerify } from './verify-run.js';

/**
 * `npm run ledger:verify`: walks the whole event log, recomputes the hash
 * chain and reports the first position where it breaks. Exit 0: OK; 1: broken;
 * 2: the database could not be opened (e.g. "npm start" holds the embedded one).
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
    code = await runLedgerVerify(ledger.db, print);
  } finally {
    await ledger.close();
  }
} catch (error) {
  if (!(error instanceof LedgerDatabaseUnavailable)) throw error;
  process.stderr.write(`${error.message}\n`);
}
process.exit(code);
