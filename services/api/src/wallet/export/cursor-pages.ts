import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Reads a query's rows through one server-side cursor in a read transaction (one query plan,
 * one snapshot, `FETCH` of `pageSize` rows at a time) and hands each page to `onPage` while
 * the next page is already being fetched. Stops after `max` rows. `cursor` names the
 * cursor (an SQL identifier).
 */
export async function forEachCursorPage<Row, DB>(
  db: Kysely<DB>,
  cursor: string,
  query: RawBuilder<unknown>,
  onPage: (rows: Row[]) => Promise<void> | void,
  options: { pageSize?: number; max?: number } = {},
): Promise<number> {
  const size = options.pageSize ?? 1_000;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return db.transaction().execute(async (trx) => {
    await sql`declare ${sql.id(cursor)} no scroll cursor for ${query}`.execute(trx);
    const fetchPage = () => {
      const page = sql<Row>`fetch ${sql.raw(String(size))} from ${sql.id(cursor)}`
        .execute(trx)
        .then((r) => r.rows);
      page.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
      return page;
    };
    let read = 0;
    let next: Promise<Row[]> | undefined = fetchPage();
    while (next) {
      let rows: Row[] = await next;
      if (rows.length > max - read) rows = rows.slice(0, max - read);
      read += rows.length;
      next = rows.length === size && read < max ? fetchPage() : undefined;
      if (rows.length) await onPage(rows);
    }
    return read;
  });
}
