import { runLedgerCli } from './cli.js';
import { runLedgerVerify } from './verify-run.js';

/**
 * `npm run ledger:verify`: walks the whole event log, recomputes the hash
 * chain and reports the first position where it breaks. Exit 0: OK; 1: broken;
 * 2: the database could not be opened (e.g. "npm start" holds the embedded one).
 */
await runLedgerCli((db, print) => runLedgerVerify(db, print));
