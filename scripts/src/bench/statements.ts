import { sql, type Kysely } from 'kysely';

/** The settings that make PostgreSQL count statements (pg_stat_statements), with BENCH_STATEMENTS=1. */
export const statementSettings = (on: boolean) =>
  on ? { settings: { shared_preload_libraries: 'pg_stat_statements' } } : {};

/** Creates the extension (once per database) and clears its counts. */
export async function resetStatements<DB>(db: Kysely<DB>): Promise<void> {
  await sql`create extension if not exists pg_stat_statements`.execute(db);
  await sql`select pg_stat_statements_reset()`.execute(db);
}

/**
 * Prints the statements PostgreSQL ran since the last reset, per `unit` (a request, a
 * contract), by total execution time, and returns the statements per unit.
 */
export async function printStatements<DB>(
  db: Kysely<DB>,
  units: number,
  unit = 'request',
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const rows = (
    await sql<{ calls: number; ms: number; query: string }>`
      select calls, total_exec_time::float8 as ms, query from pg_stat_statements
      order by total_exec_time desc`.execute(db)
  ).rows;
  const calls = rows.reduce((a, r) => a + Number(r.calls), 0);
  const ms = rows.reduce((a, r) => a + r.ms, 0);
  write(
    `statements: ${(calls / units).toFixed(2)} per ${unit}, ${(ms / units).toFixed(3)} ms of execution per ${unit}`,
  );
  for (const r of rows.slice(0, 40)) {
    write(
      `${(Number(r.calls) / units).toFixed(2).padStart(7)} calls/${unit} ${(r.ms / units).toFixed(3).padStart(7)} ms/${unit}  ${r.query.replace(/\s+/g, ' ').slice(0, 150)}`,
    );
  }
  return calls / units;
}
