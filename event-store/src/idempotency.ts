import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './schema/tables.js';

export interface RecordedCommand {
  result: unknown;
  positions: number[];
}

/** First results of the given idempotency keys that were already recorded. */
export async function findCommands<DB extends EventStoreTables>(
  db: Kysely<DB>,
  keys: string[],
): Promise<Map<string, RecordedCommand>> {
  const found = new Map<string, RecordedCommand>();
  if (keys.length === 0) return found;
  const { rows } = await sql<{ key: string; result: unknown; positions: number[] }>`
    select key, result, positions from commands where key = any(${keys}::text[])`.execute(db);
  for (const row of rows) found.set(row.key, { result: row.result, positions: row.positions });
  return found;
}
