import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';

/**
 * Adds `count` projected transaction rows to a wallet (ids from `firstId`, one second
 * apart, the destination named by `destinationUserId`), as the projector would leave them.
 */
export async function addTransactionRows<DB>(
  db: Kysely<DB>,
  walletId: string,
  count: number,
  options: { firstId?: number; destinationUserId?: string | null } = {},
): Promise<void> {
  const first = options.firstId ?? 1_000_000_000;
  await sql`insert into wallet_transactions (id, key, wallet_id, user_id, reference, operation_type,
      direction, amount, status, reason, source_wallet_id, destination_wallet_id, source_user_id,
      destination_user_id, payment_means, destination, created_at, updated_at)
    select ${first}::bigint + g, 'fixture-' || (${first}::bigint + g), ${walletId}, null,
      'REF-' || g, 'TRANSFER', 'OUT', g, 'SUCCESS', 'Lot <' || g || '> & co',
      ${walletId}, 'w-other', null, ${options.destinationUserId ?? null}, null, null,
      timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01'
    from generate_series(1, ${count}::int) g`.execute(db);
}

/** The rows of the `Transactions` sheet of an .xlsx, as exceljs reads them back. */
export async function readSheet(payload: Buffer | string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  if (typeof payload === 'string') await workbook.xlsx.readFile(payload);
  else await workbook.xlsx.load(payload as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Transactions');
  if (!sheet) throw new Error('no Transactions sheet');
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

export async function until(check: () => Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
