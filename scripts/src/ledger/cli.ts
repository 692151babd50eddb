import type { Kysely } from 'kysely';
import type { ProjectionTables } from '@filiere/projections';
import { ConfigError, parseConfig, type Config } from '@filiere/platform';
import { LedgerDatabaseUnavailable, openLedgerDatabase } from './database.js';

/** Where a ledger command's lines go: `out` for its report, `err` for why it could not run. */
export interface LedgerOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The shared body of the `ledger:*` commands, with the environment given: configuration
 * (one-line error, code 1), DATABASE_URL or the embedded PostgreSQL, the command; returns its
 * exit code (2 when the database cannot be opened, e.g. "npm start" holds it).
 */
export async function runLedgerCommand(
  run: (db: Kysely<ProjectionTables>, print: (line: string) => void) => Promise<number>,
  env: NodeJS.ProcessEnv,
  output: LedgerOutput,
): Promise<number> {
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    output.err(error.message);
    return 1;
  }
  try {
    const ledger = await openLedgerDatabase(config);
    try {
      return await run(ledger.db, output.out);
    } finally {
      await ledger.close();
    }
  } catch (error) {
    if (!(error instanceof LedgerDatabaseUnavailable)) throw error;
    output.err(error.message);
    return 2;
  }
}

/** A `ledger:*` command as a process: runLedgerCommand on its environment, then exit. */
export async function runLedgerCli(
  run: (db: Kysely<ProjectionTables>, print: (line: string) => void) => Promise<number>,
): Promise<never> {
  process.exit(
    await runLedgerCommand(run, process.env, {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    }),
  );
}
