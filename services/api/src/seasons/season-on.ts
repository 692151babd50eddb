import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { SeasonsTables } from './tables.js';

/**
 * The season a day belongs to (`from_date ≤ day ≤ to_date`; the latest-starting one when
 * seasons overlap), or null: what another context counts a dated fact under (a contract's
 * delivery day, a grower's message).
 */
export async function seasonIdOn<DB extends Pick<SeasonsTables, 'seasons'>>(
  db: Kysely<DB>,
  day: string,
): Promise<number | null> {
  const row = await narrowDb<Pick<SeasonsTables, 'seasons'>>()(db)
    .selectFrom('seasons')
    .select('id')
    .where('from_date', '<=', day)
    .where('to_date', '>=', day)
    .orderBy('from_date', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
