import type { SelectQueryBuilder } from 'kysely';
import { pageOf, type ListQuery } from './schemas.js';

/**
 * One page of a list answer: `rows` (selected and ordered) cut to the page of
 * `query`, and the count of `filtered` (the same filters, nothing selected),
 * read in parallel.
 */
export async function readPage<Row>(
  rows: SelectQueryBuilder<any, any, Row>,
  filtered: SelectQueryBuilder<any, any, any>,
  query: ListQuery,
): Promise<{ rows: Row[]; count: number }> {
  const { offset, limit } = pageOf(query);
  const paged = limit === undefined ? rows.offset(offset) : rows.offset(offset).limit(limit);
  const [data, total] = await Promise.all([
    paged.execute(),
    filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: data, count: Number(total.n) };
}
