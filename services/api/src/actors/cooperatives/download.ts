import type { Writable } from 'node:stream';
import { forEachCursorPage, writeSheetXlsx } from '../../wallet/index.js';
import type { Scope } from './domain/reach.js';
import { cooperativesExportSql, type CooperativesDb } from './queries.js';

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `+22901XXXXXXXX` as the screens write it: `01 XX XX XX XX`. */
export const localPhone = (e164: string | null): string | null =>
  e164 === null
    ? null
    : e164
        .replace(/^\+229/, '')
        .replace(/(\d{2})(?=\d)/g, '$1 ')
        .trim();

const COLUMNS = [
  { header: 'Référence', width: 14 },
  { header: 'Dénomination', width: 40 },
  { header: 'Nom du représentant', width: 22 },
  { header: 'Prénoms', width: 24 },
  { header: 'Téléphone', width: 16 },
  { header: 'E-mail', width: 30 },
  { header: 'RCCM', width: 18 },
  { header: 'IFU', width: 16 },
  { header: 'Mobile money', width: 16 },
  { header: 'Compte bancaire', width: 24 },
  { header: 'Cluster', width: 22 },
] as const;

interface Row {
  reference: string;
  denomination: string;
  lastname: string;
  firstname: string;
  phone: string | null;
  email: string | null;
  rccm: string | null;
  ifu: string;
  momo_account_number: string | null;
  bank_account_number: string | null;
  cluster: string;
}

/** Streams the cooperatives of `scope` (active ones) as an .xlsx with French headers. */
export function writeCooperativesXlsx(
  db: CooperativesDb,
  scope: Exclude<Scope, { kind: 'refused' }>,
  target: { stream: Writable },
): Promise<number> {
  return writeSheetXlsx<Row>(
    {
      name: 'Coopératives',
      columns: COLUMNS,
      shared: COLUMNS.map((c) => c.header),
      pages: (onPage, max) =>
        forEachCursorPage(
          db,
          'cooperatives_export',
          cooperativesExportSql(scope),
          (rows: Row[]) => onPage(rows),
          { max },
        ),
      render: (n, r, cells) =>
        `<row r="${n}">` +
        cells.text(`A${n}`, r.reference) +
        cells.text(`B${n}`, r.denomination) +
        cells.text(`C${n}`, r.lastname) +
        cells.text(`D${n}`, r.firstname) +
        cells.text(`E${n}`, localPhone(r.phone)) +
        cells.text(`F${n}`, r.email) +
        cells.text(`G${n}`, r.rccm) +
        cells.text(`H${n}`, r.ifu) +
        cells.text(`I${n}`, localPhone(r.momo_account_number)) +
        cells.text(`J${n}`, r.bank_account_number) +
        cells.text(`K${n}`, r.cluster) +
        '</row>',
    },
    target,
  );
}
