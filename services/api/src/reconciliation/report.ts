import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { NotFoundError } from '@filiere/platform';
import { writeSheetXlsx } from '../wallet/index.js';
import type { DayFigures } from './domain/index.js';
import type { ReconciliationTables } from './tables.js';

export const KIND_LABELS: Record<string, string> = {
  MISSING_IN_LEDGER: 'Encaissé, non crédité',
  MISSING_AT_PROVIDER: 'Crédité ou payé, absent du relevé',
  DUPLICATE: 'Doublon',
  AMOUNT_MISMATCH: 'Écart de montant',
};
export const STATUS_LABELS: Record<string, string> = {
  OPEN: 'Ouvert',
  LINKED: 'Rapproché à la main',
  RESOLVED: 'Résolu',
  CLOSED: 'Clos',
};
const FIGURE_LABELS: [keyof DayFigures, string][] = [
  ['lines', 'Lignes du relevé'],
  ['linesAmount', 'Montant du relevé (F CFA)'],
  ['movements', 'Mouvements du registre'],
  ['movementsAmount', 'Montant du registre (F CFA)'],
  ['matched', 'Rapprochés'],
  ['matchedAmount', 'Montant rapproché (F CFA)'],
  ['unmatchedProvider', 'Non rapprochés côté fournisseur'],
  ['unmatchedProviderAmount', 'Montant non rapproché côté fournisseur (F CFA)'],
  ['unmatchedLedger', 'Non rapprochés côté registre'],
  ['unmatchedLedgerAmount', 'Montant non rapproché côté registre (F CFA)'],
  ['differences', 'Écarts de montant'],
  ['differencesAmount', 'Total des écarts (F CFA)'],
  ['duplicates', 'Doublons'],
];

const COLUMNS = [
  { header: 'Rubrique', width: 44 },
  { header: 'Valeur', width: 18 },
  { header: 'Référence', width: 28 },
  { header: 'Référence fournisseur', width: 28 },
  { header: 'État', width: 22 },
] as const;

type Row =
  | { kind: 'figure'; label: string; value: number }
  | { kind: 'title'; label: string }
  | {
      kind: 'exception';
      label: string;
      amount: number;
      reference: string;
      line: string;
      status: string;
    };

/**
 * The day's report as .xlsx: the close's figures, then each exception of the day (kind,
 * amount, our reference, the provider's, its state).
 */
export async function writeDayReport(
  db: Kysely<ReconciliationTables>,
  source: string,
  day: string,
  stream: Writable,
): Promise<number> {
  const close = await db
    .selectFrom('reconciliation_days')
    .selectAll()
    .where('source', '=', source)
    .where('day', '=', day)
    .executeTakeFirst();
  if (!close) throw new NotFoundError('Cette journée n’a pas été rapprochée');
  const exceptions = await db
    .selectFrom('reconciliation_exceptions')
    .selectAll()
    .where('source', '=', source)
    .where('day', '=', day)
    .orderBy('kind')
    .orderBy('exception_id')
    .execute();
  const figures = close.figures;
  const rows: Row[] = [
    ...FIGURE_LABELS.map(([k, label]): Row => ({ kind: 'figure', label, value: figures[k] })),
    { kind: 'title', label: `Écarts du ${day} (${source})` },
    ...exceptions.map((e): Row => ({
      kind: 'exception',
      label: KIND_LABELS[e.kind] ?? e.kind,
      amount: Number(e.kind === 'AMOUNT_MISMATCH' ? e.difference : e.amount),
      reference: e.reference ?? '',
      line: e.line_key ? e.line_key.slice(e.line_key.indexOf(':') + 1) : '',
      status: STATUS_LABELS[e.status] ?? e.status,
    })),
  ];
  return writeSheetXlsx<Row>(
    {
      name: 'Rapprochement',
      columns: COLUMNS,
      shared: [
        ...COLUMNS.map((c) => c.header),
        ...FIGURE_LABELS.map(([, l]) => l),
        ...Object.values(KIND_LABELS),
        ...Object.values(STATUS_LABELS),
      ],
      pages: async (onPage) => {
        await onPage(rows);
        return rows.length;
      },
      render: (n, row, cells) => {
        if (row.kind === 'figure') {
          return `<row r="${n}">${cells.text(`A${n}`, row.label)}${cells.amount(`B${n}`, row.value)}</row>`;
        }
        if (row.kind === 'title') return `<row r="${n}">${cells.text(`A${n}`, row.label)}</row>`;
        return (
          `<row r="${n}">` +
          cells.text(`A${n}`, row.label) +
          cells.amount(`B${n}`, row.amount) +
          cells.text(`C${n}`, row.reference) +
          cells.text(`D${n}`, row.line) +
          cells.text(`E${n}`, row.status) +
          '</row>'
        );
      },
    },
    { stream },
  );
}
