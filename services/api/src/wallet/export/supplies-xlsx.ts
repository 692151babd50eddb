import type { Writable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { forEachCursorPage } from './cursor-pages.js';
import { beninSerial, PAYMENT_MEANS_LABELS } from './xlsx.js';
import { writeSheetXlsx, type SheetCells } from './xlsx-sheet.js';
import type { WalletDb } from '../tables.js';

/** One supply as the export writes it (dates as epoch seconds). */
export interface SupplyExportRow {
  reference: string;
  method: string;
  bank_code: string | null;
  payer_phone: string | null;
  amount: string | number;
  status: string;
  failure_code: string | null;
  failure_reason: string | null;
  created: number;
  updated: number;
}

/** The status as the Approvisionnements screen shows it; a FAILED one says why. */
const STATUS_LABELS: Record<string, string> = {
  INIT: 'Nouveau',
  PENDING: 'En attente',
  SUCCESS: 'Succès',
  FAILED: 'Échouée',
  CANCELLED: 'Annulée',
  REJECTED: 'Rejetée',
  EXPIRED: 'Abandonnée',
};

/** The sheet's columns: French headers, amounts as numbers, dates in Benin time. */
export const SUPPLY_EXPORT_COLUMNS = [
  { header: 'Référence', width: 20 },
  { header: 'Moyen de paiement', width: 20 },
  { header: 'Banque', width: 26 },
  { header: 'Numéro mobile money', width: 20 },
  { header: 'Montant (FCFA)', width: 16 },
  { header: 'Statut', width: 12 },
  { header: 'Motif', width: 34 },
  { header: 'Date (heure du Bénin)', width: 22 },
  { header: 'Mis à jour (heure du Bénin)', width: 26 },
] as const;

const SHARED = [
  ...SUPPLY_EXPORT_COLUMNS.map((c) => c.header),
  ...Object.values(STATUS_LABELS),
  ...Object.values(PAYMENT_MEANS_LABELS),
];

const statusOf = (r: SupplyExportRow) =>
  STATUS_LABELS[r.status === 'FAILED' ? (r.failure_code ?? 'FAILED') : r.status] ?? r.status;

/** `+22901XXXXXXXX` as the screens write it: `01 XX XX XX XX`. */
export const localPhone = (e164: string | null): string | null =>
  e164 === null
    ? null
    : e164
        .replace(/^\+229/, '')
        .replace(/(\d{2})(?=\d)/g, '$1 ')
        .trim();

function renderSupply(
  n: number,
  r: SupplyExportRow,
  cells: SheetCells,
  bankName: (code: string | null) => string | null,
): string {
  const bank = r.method === 'BANK';
  return (
    `<row r="${n}">` +
    cells.text(`A${n}`, r.reference) +
    cells.text(`B${n}`, PAYMENT_MEANS_LABELS[r.method] ?? r.method) +
    cells.text(`C${n}`, bank ? bankName(r.bank_code) : null) +
    cells.text(`D${n}`, bank ? null : localPhone(r.payer_phone)) +
    cells.amount(`E${n}`, Number(r.amount)) +
    cells.text(`F${n}`, statusOf(r)) +
    cells.text(`G${n}`, r.failure_reason) +
    cells.date(`H${n}`, beninSerial(Number(r.created))) +
    cells.date(`I${n}`, beninSerial(Number(r.updated))) +
    '</row>'
  );
}

/** How many supplies a user has (both tabs). */
export async function countUserSupplies(db: Kysely<WalletDb>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('wallet_supplies')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('owner_user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Streams a user's supplies — both tabs of 'Approvisionnements': mobile money and card, and
 * bank transfers — newest first, as an .xlsx (sheet 'Approvisionnements'), through the same
 * streaming writer and cursor as the transactions export. `bankName` names the accepted bank
 * from its code (the configured SUPPLY_BANK_NAME).
 */
export async function writeSuppliesXlsx<DB>(
  db: Kysely<DB>,
  userId: string,
  target: { stream: Writable } | { filename: string },
  bankName: (code: string | null) => string | null,
  options: { pageSize?: number } = {},
): Promise<number> {
  return writeSheetXlsx<SupplyExportRow>(
    {
      name: 'Approvisionnements',
      columns: SUPPLY_EXPORT_COLUMNS,
      shared: SHARED,
      pages: (onPage, max) =>
        forEachCursorPage<SupplyExportRow, DB>(
          db,
          'supply_export_rows',
          sql`select s.reference, s.method, s.bank_code, s.payer_phone, s.amount::text as amount,
              s.status, s.failure_code, s.failure_reason,
              extract(epoch from s.created_at)::float8 as created,
              extract(epoch from s.updated_at)::float8 as updated
            from wallet_supplies s
            where s.owner_user_id = ${userId}
            order by s.created_at desc, s.reference`,
          onPage,
          { max, ...(options.pageSize ? { pageSize: options.pageSize } : {}) },
        ),
      render: (n, row, cells) => renderSupply(n, row, cells, bankName),
    },
    target,
  );
}
