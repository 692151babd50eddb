import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { forEachCursorPage } from '../export/cursor-pages.js';
import { writeSheetXlsx } from '../export/xlsx-sheet.js';
import {
  balanceAt,
  movementsSql,
  shownReference,
  statementSpan,
  type MovementRow,
} from './point-in-time.js';
import type { WalletHistoryTables } from './tables.js';

/** French labels of the events a statement lists. */
export const MOVEMENT_LABELS: Record<string, string> = {
  WalletOpened: 'Ouverture du portefeuille',
  SupplyCredited: 'Approvisionnement',
  TransferSent: 'Transfert envoyé',
  TransferReceived: 'Transfert reçu',
  FinancingSent: 'Financement envoyé',
  FinancingReceived: 'Financement reçu',
  WithdrawalDebited: 'Retrait',
  WithdrawalRefunded: 'Retrait remboursé',
  HoldPlaced: 'Blocage de fonds',
  HoldReleased: 'Déblocage de fonds',
  HoldCaptured: 'Fonds bloqués prélevés',
  HoldPaymentReceived: 'Paiement reçu (fonds bloqués)',
  HoldSettlementPaid: 'Règlement payé',
  HoldSettled: 'Règlement des fonds bloqués',
  HoldSettlementReceived: 'Règlement reçu',
};

const COLUMNS = [
  { header: 'Date', width: 18 },
  { header: 'Opération', width: 30 },
  { header: 'Référence', width: 38 },
  { header: 'Montant (F CFA)', width: 16 },
  { header: 'Solde (F CFA)', width: 16 },
  { header: 'Solde disponible (F CFA)', width: 20 },
  { header: 'Position', width: 12 },
] as const;

const OPENING = 'Solde d’ouverture';
const CLOSING = 'Solde de clôture';

type Line =
  | { kind: 'movement'; row: MovementRow }
  | { kind: 'total'; label: string; balance: number; available: number };

/** Excel's serial of an instant, in Benin's time (UTC+1). */
const serialOf = (d: Date) => (d.getTime() + 3_600_000) / 86_400_000 + 25_569;

/**
 * Streams a wallet's statement over Benin's days `from`…`to` as an .xlsx: the opening
 * balance, every movement (a page at a time through a cursor), the closing balance.
 */
export async function writeStatementXlsx(
  db: Kysely<WalletHistoryTables>,
  walletId: string,
  owner: { firstname: string; lastname: string },
  days: { from: string; to: string },
  stream: Writable,
): Promise<number> {
  const { start, end } = statementSpan(days.from, days.to);
  const opening = await balanceAt(db, walletId, start, { strict: true });
  const closing = await balanceAt(db, walletId, end, { strict: true });
  const name = `${owner.lastname} ${owner.firstname}`.trim();
  return writeSheetXlsx<Line>(
    {
      name: 'Relevé',
      columns: COLUMNS,
      shared: [
        ...COLUMNS.map((c) => c.header),
        OPENING,
        CLOSING,
        ...Object.values(MOVEMENT_LABELS),
      ],
      pages: async (onPage, max) => {
        await onPage([
          {
            kind: 'total',
            label: `${OPENING} au ${days.from} — ${name}`,
            balance: opening.balance,
            available: opening.availableBalance,
          },
        ]);
        const n = await forEachCursorPage<MovementRow, WalletHistoryTables>(
          db,
          'wallet_statement',
          movementsSql(walletId, start, end),
          (rows) => onPage(rows.map((row) => ({ kind: 'movement', row }))),
          { max: max - 2 },
        );
        await onPage([
          {
            kind: 'total',
            label: `${CLOSING} au ${days.to}`,
            balance: closing.balance,
            available: closing.availableBalance,
          },
        ]);
        return n + 2;
      },
      render: (n, line, cells) => {
        if (line.kind === 'total') {
          return (
            `<row r="${n}">` +
            cells.text(`B${n}`, line.label) +
            cells.amount(`E${n}`, line.balance) +
            cells.amount(`F${n}`, line.available) +
            '</row>'
          );
        }
        const r = line.row;
        return (
          `<row r="${n}">` +
          cells.date(`A${n}`, serialOf(r.recorded_at)) +
          cells.text(`B${n}`, MOVEMENT_LABELS[r.type] ?? r.type) +
          cells.text(`C${n}`, shownReference(r)) +
          cells.amount(`D${n}`, Number(r.amount)) +
          cells.amount(`E${n}`, Number(r.balance)) +
          cells.amount(`F${n}`, Number(r.available_balance)) +
          cells.amount(`G${n}`, Number(r.position)) +
          '</row>'
        );
      },
    },
    { stream },
  );
}
