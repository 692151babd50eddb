import { sql, type Kysely } from 'kysely';

/** One transaction row as the export writes it (names joined, date as epoch seconds). */
export interface ExportRow {
  reference: string;
  operation_type: string;
  direction: string;
  amount: number;
  status: string;
  reason: string | null;
  payment_means: string | null;
  destination: string | null;
  epoch: number;
  source_name: string | null;
  destination_name: string | null;
}

/**
 * Reads a wallet's transactions, oldest first, through one server-side cursor (one query
 * plan, one snapshot, `FETCH` of `pageSize` rows at a time) and hands each page to `onPage`
 * while the next page is already being fetched. Stops after `max` rows.
 */
export async function forEachExportPage(
  db: Kysely<any>,
  walletId: string,
  onPage: (rows: ExportRow[]) => Promise<void> | void,
  options: { pageSize?: number; max?: number } = {},
): Promise<number> {
  const size = options.pageSize ?? 1_000;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return db.transaction().execute(async (trx) => {
    await sql`declare export_rows no scroll cursor for
      select t.reference, t.operation_type, t.direction, t.amount, t.status, t.reason,
        t.payment_means, t.destination, extract(epoch from t.created_at)::float8 as epoch,
        su.firstname || ' ' || su.lastname as source_name,
        du.firstname || ' ' || du.lastname as destination_name
      from wallet_transactions t
      left join users su on su.id::text = t.source_user_id
      left join users du on du.id::text = t.destination_user_id
      where t.wallet_id = ${walletId}
      order by t.id`.execute(trx);
    const fetchPage = () => {
      const page = sql<ExportRow>`fetch ${sql.raw(String(size))} from export_rows`
        .execute(trx)
        .then((r) => r.rows);
      page.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
      return page;
    };
    let read = 0;
    let next: Promise<ExportRow[]> | undefined = fetchPage();
    while (next) {
      let rows: ExportRow[] = await next;
      if (rows.length > max - read) rows = rows.slice(0, max - read);
      read += rows.length;
      next = rows.length === size && read < max ? fetchPage() : undefined;
      if (rows.length) await onPage(rows);
    }
    return read;
  });
}
