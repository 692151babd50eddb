import type { Kysely } from 'kysely';
import type { ActorsTables } from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import { FILE_COLUMNS } from './domain/contract-file.js';
import { identityUsers } from '../../identity/index.js';

export type TemplateTables = Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'plots'>;

/**
 * The file 'create many' expects, with the template's headers; given growers (the
 * selection 'to obtain references'), one row per grower's plot with its reference, phone,
 * plot name and the plot's estimated production as the quantity, the amount left to fill.
 */
export async function contractTemplate(
  db: Kysely<TemplateTables>,
  format: 'xlsx' | 'csv',
  growerIds: string[],
): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const rows = growerIds.length
    ? await db
        .selectFrom('growers as g')
        .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
        .innerJoin('plots as p', 'p.grower_id', 'g.id')
        .select(['g.reference', 'u.phone', 'p.name', 'p.estimated_production'])
        .where('g.id', 'in', growerIds)
        .where('g.deactivated_at', 'is', null)
        .orderBy('g.reference')
        .orderBy('p.seq')
        .execute()
    : [];
  const header = Object.values(FILE_COLUMNS);
  const lines = rows.map((r) => [
    r.reference,
    (r.phone ?? '').replace(/^\+229/, ''),
    r.name,
    r.estimated_production ? String(Number(r.estimated_production)) : '',
    '',
    '',
  ]);
  if (format === 'csv') {
    const quote = (cell: string) =>
      /[";\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
    const text = [header, ...lines].map((line) => line.map(quote).join(';')).join('\r\n');
    return {
      body: Buffer.from(`\ufeff${text}\r\n`, 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      fileName: 'modele-contrats-livraison.csv',
    };
  }
  // Loaded at the first .xlsx template, not with the API (exceljs is heavy to load).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contrats');
  sheet.addRow(header).font = { bold: true };
  for (const line of lines) sheet.addRow(line);
  sheet.columns.forEach((column) => {
    column.width = 22;
    column.numFmt = '@';
  });
  return {
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    fileName: 'modele-contrats-livraison.xlsx',
  };
}
