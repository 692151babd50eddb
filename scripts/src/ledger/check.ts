import { runLedgerCheck } from './check-run.js';
import { runLedgerCli } from './cli.js';

/**
 * `npm run ledger:check [projector…]`: replays each projector into a scratch
 * schema and compares it with the live tables; exit 1 on any difference.
 * DATABASE_URL, or the embedded PostgreSQL in $DATA_DIR/postgres.
 */
await runLedgerCli((db, print) => runLedgerCheck(db, { names: process.argv.slice(2), print }));
