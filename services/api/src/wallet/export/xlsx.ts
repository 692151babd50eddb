import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { transactionsPage } from '../queries/transactions.repository.js';

const PAGE = 5_000;

const OPERATION_LABELS: Record<string, string> = {
  SUPPLY: 'Approvisionnement',
  TRANSFER: 'Transfert',
  DEBIT: 'Retrait',
  REFUND: 'Remboursement',
  STANDARD: 'Paiement',
};
const STATUS_LABELS: Record<string, string> = {
  SUCCESS: 'Succès',
  FAILED: 'Échouée',
  PENDING: 'En attente',
};

/** The sheet's columns: French headers, amounts as numbers, dates as dates. */
export const EXPORT_COLUMNS = [
  { header: 'Référence', key: 'reference', width: 28 },
  { header: 'Type', key: 'type', width: 18 },
  { header: 'Sens', key: 'direction', width: 10 },
  { header: 'Montant (FCFA)', key: 'amount', width: 16, style: { numFmt: '#,##0' } },
  { header: 'Statut', key: 'status', width: 12 },
  { header: 'Motif', key: 'reason', width: 30 },
  { header: 'Moyen de paiement', key: 'means', width: 18 },
  { header: 'Émetteur', key: 'source', width: 26 },
  { header: 'Bénéficiaire', key: 'destination', width: 26 },
  { header: 'Date', key: 'date', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm' } },
];

const fullName = (u: { firstname: string; lastname: string } | null) =>
  u ? `${u.firstname} ${u.lastname}` : '';

/**
 * Streams a wallet's transactions (oldest first) as an .xlsx into `output` or a file,
 * reading keyset pages of 5,000 rows so memory stays flat. Returns the rows written.
 */
export async function writeTransactionsXlsx(
  db: Kysely<any>,
  walletId: string,
  target: { stream: Writable } | { filename: string },
  onProgress?: (rows: number) => Promise<void> | void,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ ...target, useStyles: true });
  workbook.creator = 'Filière';
  const sheet = workbook.addWorksheet('Transactions');
  sheet.columns = EXPORT_COLUMNS;
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let written = 0;
  let after = 0;
  for (;;) {
    const rows = await transactionsPage(db, walletId, after, PAGE);
    for (const t of rows) {
      sheet
        .addRow({
          reference: t.reference,
          type: OPERATION_LABELS[t.operationType] ?? t.operationType,
          direction: t.direction === 'IN' ? 'Entrée' : 'Sortie',
          amount: t.amount,
          status: STATUS_LABELS[t.status] ?? t.status,
          reason: t.reason ?? '',
          means: t.paymentMeans ?? '',
          source: fullName(t.source.user),
          destination: fullName(t.destination.user) || (t.destination.payout ?? ''),
          date: new Date(t.createdAt),
        })
        .commit();
    }
    written += rows.length;
    if (rows.length) await onProgress?.(written);
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.id);
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
