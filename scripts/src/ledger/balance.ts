import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { ProjectionTables } from '@filiere/projections';
import { balanceAt, type WalletHistoryTables } from '@filiere/api/wallet';
import { runLedgerCli } from './cli.js';

/**
 * `npm run ledger:balance -- --wallet <id> --at <ISO instant>`: the balance and available
 * balance the wallet had at that instant (after its events recorded at or before it), read
 * from `wallet_balance_history` in one indexed lookup; the same answer as
 * `GET /api/wallet/{id}/balance?at=`. Exit 0; 1 on bad arguments; 2 when the database cannot
 * be opened. Warns when the history's projector is behind the log's head.
 */
export async function runLedgerBalance(
  db: Kysely<ProjectionTables>,
  print: (line: string) => void,
  argv: string[],
): Promise<0 | 1> {
  let wallet: string | undefined;
  let at: string | undefined;
  try {
    ({
      values: { wallet, at },
    } = parseArgs({
      args: argv,
      options: { wallet: { type: 'string' }, at: { type: 'string' } },
    }));
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  if (!wallet || !at || Number.isNaN(Date.parse(at))) {
    print('Usage : npm run ledger:balance -- --wallet <id> --at <instant ISO 8601>');
    return 1;
  }
  const started = process.hrtime.bigint();
  const answer = await balanceAt(db as unknown as Kysely<WalletHistoryTables>, wallet, at);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const { rows } = await sql<{ head: string; checkpoint: string | null }>`
    select (select position::text from event_head where id) as head,
      (select position::text from projection_checkpoints
        where name = 'wallet-balance-history') as checkpoint`.execute(db);
  const lag = Number(rows[0]?.head ?? 0) - Number(rows[0]?.checkpoint ?? 0);
  print(JSON.stringify(answer));
  print(`lookup: ${ms.toFixed(2)} ms`);
  if (lag > 0) print(`warning: the history is ${lag} events behind the log (projector running?)`);
  return 0;
}

await runLedgerCli((db, print) => runLedgerBalance(db, print, process.argv.slice(2)));
