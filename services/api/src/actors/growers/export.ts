import type { Writable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../../identity/index.js';
import type { ProductTables } from '../../kernel/tables.js';
import { forEachCursorPage, writeSheetXlsx, type SheetCells } from '../../wallet/index.js';
import { momoOperator } from './domain/payout.js';
import { growersQuery, type GrowerFilter } from './queries.js';
import type { GrowersTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

/** One grower as the download writes it. */
interface GrowerExportRow {
  reference: string;
  lastname: string;
  firstname: string;
  phone: string | null;
  cooperative: string | null;
  sub_cooperative: string | null;
  department_code: string;
  commune_code: string;
  arrondissement_code: string;
  village_code: string;
  address: string | null;
  plots: string;
  area: string;
  production: string | null;
  momo: string | null;
  active: boolean;
  created: number;
}

const COLUMNS = [
  { header: 'Référence', width: 14 },
  { header: 'Nom', width: 22 },
  { header: 'Prénoms', width: 26 },
  { header: 'Téléphone', width: 18 },
  { header: 'Coopérative', width: 28 },
  { header: 'Sous-coopérative', width: 16 },
  { header: 'Département', width: 12 },
  { header: 'Commune', width: 10 },
  { header: 'Arrondissement', width: 15 },
  { header: 'Village', width: 12 },
  { header: 'Adresse', width: 28 },
  { header: 'Parcelles', width: 10 },
  { header: 'Superficie emblavée (ha)', width: 24 },
  { header: 'Production estimée (t)', width: 22 },
  { header: 'Numéro mobile money', width: 20 },
  { header: 'Opérateur', width: 10 },
  { header: 'Statut', width: 10 },
  { header: 'Enregistré le (heure du Bénin)', width: 28 },
] as const;

const STATUS = { active: 'Actif', banned: 'Banni' };
const SHARED = [...COLUMNS.map((c) => c.header), STATUS.active, STATUS.banned, 'MOOV', 'MTN'];

/** `+22901XXXXXXXX` as the screens write it: `01 XX XX XX XX`. */
const localPhone = (e164: string | null): string | null =>
  e164
    ? e164
        .replace(/^\+229/, '')
        .replace(/(\d{2})(?=\d)/g, '$1 ')
        .trim()
    : null;

/** Excel's date serial of an instant, in Benin time (UTC+1, no daylight saving). */
const beninSerial = (epochSeconds: number) => (epochSeconds + 3600) / 86_400 + 25_569;

/** A plain number cell (General format: decimals as they are). */
const decimal = (ref: string, value: number | null) =>
  value === null ? '' : `<c r="${ref}"><v>${value}</v></c>`;

function render(
  n: number,
  r: GrowerExportRow,
  cells: SheetCells,
  options: { withCooperative: boolean; withPayout: boolean },
): string {
  return (
    `<row r="${n}">` +
    cells.text(`A${n}`, r.reference) +
    cells.text(`B${n}`, r.lastname) +
    cells.text(`C${n}`, r.firstname) +
    cells.text(`D${n}`, localPhone(r.phone)) +
    cells.text(`E${n}`, options.withCooperative ? r.cooperative : null) +
    cells.text(`F${n}`, r.sub_cooperative) +
    cells.text(`G${n}`, r.department_code) +
    cells.text(`H${n}`, r.commune_code) +
    cells.text(`I${n}`, r.arrondissement_code) +
    cells.text(`J${n}`, r.village_code) +
    cells.text(`K${n}`, r.address) +
    decimal(`L${n}`, Number(r.plots)) +
    decimal(`M${n}`, Number(r.area)) +
    decimal(`N${n}`, r.production === null ? null : Number(r.production)) +
    cells.text(`O${n}`, options.withPayout ? localPhone(r.momo) : null) +
    cells.text(`P${n}`, options.withPayout ? momoOperator(r.momo) : null) +
    cells.text(`Q${n}`, r.active ? STATUS.active : STATUS.banned) +
    cells.date(`R${n}`, beninSerial(Number(r.created))) +
    '</row>'
  );
}

/**
 * Streams the growers of a filter (the caller's list: reach, search, status), newest first,
 * as an .xlsx (sheet 'Producteurs', French headers) through the wallet's streaming writer and
 * one server-side cursor: memory stays flat at 100,000 growers. Returns the rows written.
 */
export async function writeGrowersXlsx(
  pool: Kysely<ProductTables>,
  filter: GrowerFilter & { withCooperative: boolean; withPayout: boolean },
  target: { stream: Writable } | { filename: string },
): Promise<number> {
  const db = narrowDb<GrowersTables & IdentityTables>()(pool);
  const query = growersQuery(db, filter)
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .leftJoin('organizations as o', 'o.id', 'g.cooperative_id')
    .select([
      'g.reference',
      'u.lastname',
      'u.firstname',
      'u.phone',
      'o.denomination as cooperative',
      'g.sub_cooperative',
      'g.department_code',
      'g.commune_code',
      'g.arrondissement_code',
      'g.village_code',
      'g.address',
      'u.momo_account_number as momo',
      sql<boolean>`g.deactivated_at is null`.as('active'),
      sql<number>`extract(epoch from g.created_at)::float8`.as('created'),
    ])
    .select((eb) => [
      eb
        .selectFrom('plots as p')
        .whereRef('p.grower_id', '=', 'g.id')
        .select(sql<string>`count(*)::text`.as('n'))
        .as('plots'),
      eb
        .selectFrom('plots as p')
        .whereRef('p.grower_id', '=', 'g.id')
        .select(sql<string>`coalesce(sum(p.area_sown), 0)::text`.as('a'))
        .as('area'),
      eb
        .selectFrom('plots as p')
        .whereRef('p.grower_id', '=', 'g.id')
        .select(sql<string | null>`sum(p.estimated_production)::text`.as('e'))
        .as('production'),
    ])
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc');
  return writeSheetXlsx<GrowerExportRow>(
    {
      name: 'Producteurs',
      columns: COLUMNS,
      shared: SHARED,
      pages: (onPage, max) =>
        forEachCursorPage<GrowerExportRow, ProductTables>(
          pool,
          'growers_export_rows',
          sql`${query}`,
          onPage,
          {
            max,
          },
        ),
      render: (n, row, cells) => render(n, row, cells, filter),
    },
    target,
  );
}
