import { runLedgerCli } from './cli.js';
import { runLedgerRebuild } from './rebuild-run.js';

/**
 * `npm run ledger:rebuild [projector…]`: rebuilds read tables from position 0
 * into fresh tables and swaps them in (readers never see half a rebuild).
 * DATABASE_URL, or the embedded PostgreSQL in $DATA_DIR/postgres.
 */
await runLedgerCli((db, print) => runLedgerRebuild(db, { names: process.argv.slice(2), print }));
