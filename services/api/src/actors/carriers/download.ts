import type { Writable } from 'node:stream';
import { forEachCursorPage, writeSheetXlsx } from '../../wallet/index.js';
import type { Scope } from '../cooperatives/domain/reach.js';
import { localPhone } from '../cooperatives/download.js';
import { CAR_TYPE_LABELS, type CarType } from './domain/vehicles.js';
import { carriersExportSql, type CarriersDb } from './queries.js';

const COLUMNS = [
  { header: 'Référence', width: 14 },
  { header: 'Nom', width: 22 },
  { header: 'Prénoms', width: 24 },
  { header: 'Téléphone', width: 16 },
  { header: 'E-mail', width: 28 },
  { header: 'Adresse', width: 30 },
  { header: 'Nombre de véhicules', width: 12 },
  { header: 'Véhicules (type, immatriculation, capacité)', width: 60 },
  { header: 'Mobile money', width: 16 },
  { header: 'Compte bancaire', width: 24 },
  { header: 'Cluster', width: 22 },
] as const;

interface Row {
  reference: string;
  lastname: string;
  firstname: string;
  phone: string | null;
  email: string | null;
  address: string;
  vehicle_count: number;
  vehicles: { carType: CarType; registration: string; capacity: number }[];
  momo_account_number: string | null;
  bank_account_number: string | null;
  cluster: string;
}

const vehiclesText = (vehicles: Row['vehicles']) =>
  vehicles
    .map((v) => `${CAR_TYPE_LABELS[v.carType] ?? v.carType} ${v.registration} (${v.capacity} Kg)`)
    .join(', ');

/** Streams the active carriers of `scope` as an .xlsx with French headers. */
export function writeCarriersXlsx(
  db: CarriersDb,
  scope: Exclude<Scope, { kind: 'refused' }>,
  target: { stream: Writable },
): Promise<number> {
  return writeSheetXlsx<Row>(
    {
      name: 'Transporteurs',
      columns: COLUMNS,
      shared: COLUMNS.map((c) => c.header),
      pages: (onPage, max) =>
        forEachCursorPage(
          db,
          'carriers_export',
          carriersExportSql(scope),
          (rows: Row[]) => onPage(rows),
          {
            max,
          },
        ),
      render: (n, r, cells) =>
        `<row r="${n}">` +
        cells.text(`A${n}`, r.reference) +
        cells.text(`B${n}`, r.lastname) +
        cells.text(`C${n}`, r.firstname) +
        cells.text(`D${n}`, localPhone(r.phone)) +
        cells.text(`E${n}`, r.email) +
        cells.text(`F${n}`, r.address) +
        cells.amount(`G${n}`, Number(r.vehicle_count)) +
        cells.text(`H${n}`, vehiclesText(r.vehicles)) +
        cells.text(`I${n}`, localPhone(r.momo_account_number)) +
        cells.text(`J${n}`, r.bank_account_number) +
        cells.text(`K${n}`, r.cluster) +
        '</row>',
    },
    target,
  );
}
