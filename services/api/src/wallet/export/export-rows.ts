import { sql, type Kysely } from 'kysely';
import { forEachCursorPage } from './cursor-pages.js';
import { identityUsers } from '../../identity/index.js';

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
 * Reads a wallet's transactions, oldest first, through one server-side cursor
 * (`forEachCursorPage`: one query plan, one snapshot, `FETCH` of `pageSize` rows at a time)
 * and hands each page to `onPage` while the next page is already being fetched. Stops after
 * `max` rows.
 */
export async function forEachExportPage<DB>(
  db: Kysely<DB>,
  walletId: string,
  onPage: (rows: ExportRow[]) => Promise<void> | void,
  options: { pageSize?: number; max?: number } = {},
): Promise<number> {
  return forEachCursorPage<ExportRow, DB>(
    db,
    'export_rows',
    sql`select t.reference, t.operation_type, t.direction, t.amount, t.status, t.reason,
        t.payment_means, t.destination, extract(epoch from t.created_at)::float8 as epoch,
        su.firstname || ' ' || su.lastname as source_name,
        du.firstname || ' ' || du.lastname as destination_name
      from wallet_transactions t
      left join ${identityUsers().as('su')} on su.id::text = t.source_user_id
      left join ${identityUsers().as('du')} on du.id::text = t.destination_user_id
      where t.wallet_id = ${walletId}
      order by t.id`,
    onPage,
    options,
  );
}
