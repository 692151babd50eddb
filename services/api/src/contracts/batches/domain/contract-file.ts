import { Readable, Transform } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { ValidationError } from '@filiere/platform';
import {
  defaultDeliveryDate,
  NUMBER_MESSAGES,
  parseAmount,
  parseTonnes,
} from '../../domain/index.js';

/**
 * The 'create many' file (.xlsx or .csv): one row per grower, read into plain text cells and
 * checked cell by cell. Every problem is named by its line (the file's line: the header is
 * line 1), its column (the header as the template writes it) and a French reason; a file with
 * any problem creates nothing.
 */

/** The columns, in the template's order, with the French header the user sees. */
export const FILE_COLUMNS = {
  reference: 'Référence producteur',
  phone: 'Téléphone',
  plot: 'Parcelle',
  quantity: 'Quantité (t)',
  amount: 'Montant (FCFA)',
  deliveryDate: 'Date de livraison',
} as const;
export type FileColumn = keyof typeof FILE_COLUMNS;

export interface FileProblem {
  /** The line in the file (1 = header); 0 for the file as a whole. */
  line: number;
  /** The column's header ('Fichier' for the file as a whole). */
  column: string;
  reason: string;
}

export interface RawRow {
  line: number;
  cells: Record<FileColumn, string>;
}

export const FILE_LIMITS = { maxBytes: 5 * 1024 * 1024, maxRows: 10_000 } as const;

export const FILE_MESSAGES = {
  invalid: 'Le fichier contient des erreurs : aucun contrat n’a été créé',
  type: 'Le fichier doit être un classeur Excel (.xlsx) ou un fichier CSV (.csv)',
  tooBig: 'Le fichier dépasse la taille maximale de 5 Mo',
  tooManyRows: (max: number) =>
    `Le fichier dépasse ${String(max).replace(/\B(?=(\d{3})+$)/g, ' ')} lignes de producteurs`,
  empty: 'Le fichier ne contient aucun producteur',
  unreadable: 'Le fichier est illisible ou endommagé',
  missingColumn: 'Colonne manquante',
  required: 'Ce champ est obligatoire',
  growerRequired: 'Renseignez la référence ou le téléphone du producteur',
  quantity: NUMBER_MESSAGES.quantity,
  quantityCeiling: NUMBER_MESSAGES.quantityCeiling,
  amount: NUMBER_MESSAGES.amount,
  date: 'Date invalide : AAAA-MM-JJ ou JJ/MM/AAAA',
  pastDate: 'La date de livraison ne peut pas être passée',
  phone: 'Numéro de téléphone invalide',
} as const;

/** Refuses the whole file with every problem (400, `problems`). */
export function fileRefused(problems: FileProblem[]): ValidationError {
  return new ValidationError(
    problems.length === 1 && problems[0]!.line === 0 ? problems[0]!.reason : FILE_MESSAGES.invalid,
    { problems },
  );
}

const wholeFile = (reason: string): ValidationError =>
  fileRefused([{ line: 0, column: 'Fichier', reason }]);

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** Accepted headers (folded) per column: the template's, and the obvious English ones. */
const HEADER_ALIASES: Record<string, FileColumn> = {
  referenceproducteur: 'reference',
  reference: 'reference',
  referenceduproducteur: 'reference',
  growerreference: 'reference',
  telephone: 'phone',
  telephoneproducteur: 'phone',
  phone: 'phone',
  parcelle: 'plot',
  plot: 'plot',
  quantitet: 'quantity',
  quantite: 'quantity',
  quantitetonnes: 'quantity',
  quantity: 'quantity',
  montantfcfa: 'amount',
  montant: 'amount',
  amount: 'amount',
  datedelivraison: 'deliveryDate',
  date: 'deliveryDate',
  deliverydate: 'deliveryDate',
};

type Kind = 'xlsx' | 'csv';

/**
 * The file's kind from its CONTENT (an .xlsx is a ZIP archive, a CSV is UTF-8 text without
 * NUL bytes), which must agree with its extension: a renamed PDF or executable is refused.
 */
export function detectKind(buffer: Buffer, fileName: string): Kind {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  const zip = buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50;
  if (ext === 'xlsx' && zip) return 'xlsx';
  if (ext === 'csv' && !zip && isUtf8Text(buffer)) return 'csv';
  throw wholeFile(FILE_MESSAGES.type);
}

function isUtf8Text(buffer: Buffer): boolean {
  if (buffer.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

/** Reads the rows of the file (header mapped to columns); file-level problems refuse it. */
export async function readContractFile(
  buffer: Buffer,
  fileName: string,
  limits: { maxBytes: number; maxRows: number } = FILE_LIMITS,
): Promise<RawRow[]> {
  if (buffer.length > limits.maxBytes) throw wholeFile(FILE_MESSAGES.tooBig);
  if (buffer.length === 0) throw wholeFile(FILE_MESSAGES.empty);
  const kind = detectKind(buffer, fileName);
  const lines = kind === 'xlsx' ? await xlsxLines(buffer, limits.maxRows) : csvLines(buffer);
  const [header, ...data] = lines;
  if (!header) throw wholeFile(FILE_MESSAGES.empty);
  if (data.length > limits.maxRows) throw wholeFile(FILE_MESSAGES.tooManyRows(limits.maxRows));
  const positions = new Map<FileColumn, number>();
  header.cells.forEach((cell, index) => {
    const column = HEADER_ALIASES[fold(cell)];
    if (column && !positions.has(column)) positions.set(column, index);
  });
  const problems: FileProblem[] = [];
  if (!positions.has('reference') && !positions.has('phone')) {
    problems.push({
      line: header.line,
      column: FILE_COLUMNS.reference,
      reason: `${FILE_MESSAGES.missingColumn} : « ${FILE_COLUMNS.reference} » ou « ${FILE_COLUMNS.phone} »`,
    });
  }
  for (const column of ['quantity', 'amount'] as const) {
    if (!positions.has(column)) {
      problems.push({
        line: header.line,
        column: FILE_COLUMNS[column],
        reason: `${FILE_MESSAGES.missingColumn} : « ${FILE_COLUMNS[column]} »`,
      });
    }
  }
  if (problems.length > 0) throw fileRefused(problems);
  if (data.length === 0) throw wholeFile(FILE_MESSAGES.empty);
  return data.map((line) => {
    const cells = {} as Record<FileColumn, string>;
    for (const column of Object.keys(FILE_COLUMNS) as FileColumn[]) {
      const index = positions.get(column);
      cells[column] = index === undefined ? '' : (line.cells[index] ?? '').trim();
    }
    return { line: line.line, cells };
  });
}

interface Line {
  line: number;
  cells: string[];
}

function csvLines(buffer: Buffer): Line[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(buffer, {
      bom: true,
      delimiter: [';', ',', '\t'],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw fileRefused([
      {
        line: typeof line === 'number' ? line : 0,
        column: 'Fichier',
        reason: FILE_MESSAGES.unreadable,
      },
    ]);
  }
  return records
    .filter((r) => r.record.some((cell) => cell.trim() !== ''))
    .map((r) => ({ line: r.info.lines, cells: r.record }));
}

/**
 * The first sheet's non-empty rows, read by exceljs's streaming reader: rows are parsed as the
 * ZIP entry inflates and reading stops at the first row past the limit (the header and
 * `maxRows` data rows), so a crafted 5 MB file that inflates to millions of rows is refused
 * after `maxRows` + 2 rows instead of being loaded whole. Only the first sheet is read.
 */
async function xlsxLines(buffer: Buffer, maxRows: number): Promise<Line[]> {
  // Loaded at the first uploaded .xlsx, not with the API (exceljs is heavy to load).
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'cache',
    styles: 'cache', // number formats: a date cell reads as a Date
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const lines: Line[] = [];
  let sheets = 0;
  try {
    await readPartsFirst(reader as unknown as ReaderParts, buffer);
    for await (const sheet of reader) {
      sheets += 1;
      for await (const row of sheet) {
        const cells: string[] = [];
        row.eachCell({ includeEmpty: true }, (cell, col) => {
          cells[col - 1] = cellText(cell.value);
        });
        for (let i = 0; i < cells.length; i += 1) cells[i] ??= '';
        if (!cells.some((c) => c.trim() !== '')) continue;
        lines.push({ line: row.number, cells });
        // The header and the data rows: one more than the limit refuses the file here.
        if (lines.length > maxRows + 1) throw wholeFile(FILE_MESSAGES.tooManyRows(maxRows));
      }
      break; // the first sheet only
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw wholeFile(FILE_MESSAGES.unreadable);
  }
  if (sheets === 0) throw wholeFile(FILE_MESSAGES.empty);
  return lines;
}

/** The parts of a workbook exceljs's streaming reader must know before a worksheet. */
interface ReaderParts {
  sharedStrings?: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
}

/** Inflated bytes read from one of those parts at most (a 10,000-row file needs ~2 MB). */
const MAX_PART_BYTES = 32 * 1024 * 1024;

/**
 * Gives the reader the workbook, its relations, the shared strings and the styles before it
 * meets a worksheet. Without them it copies the worksheet to a temporary file, to read it after
 * the archive's last entry — and unzipper ends the archive's stream once it has parsed the
 * last entry, dropping entries it had parsed but not yet handed over: 1–2 % of reads of a
 * small valid file (ExcelJS writes workbook.xml last; Excel writes sharedStrings.xml and
 * styles.xml after sheet1.xml) found no workbook and refused it as unreadable. Read here from
 * the central directory (JSZip: random access, nothing else inflated) with exceljs's own
 * parsers; the reader then streams the first worksheet it meets, knowing them.
 */
async function readPartsFirst(reader: ReaderParts, buffer: Buffer): Promise<void> {
  const { default: JSZip } = await import('jszip');
  const zip = await JSZip.loadAsync(buffer);
  const part = (name: string): Readable | undefined => {
    const file = zip.file(name);
    if (!file) return undefined;
    let bytes = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(
          bytes > MAX_PART_BYTES ? new Error(`${name}: over ${MAX_PART_BYTES} bytes`) : null,
          chunk,
        );
      },
    });
    const source = file.nodeStream('nodebuffer') as unknown as Readable;
    source.on('error', (error) => capped.destroy(error));
    return source.pipe(capped);
  };
  const relations = part('xl/_rels/workbook.xml.rels');
  const workbook = part('xl/workbook.xml');
  if (!relations || !workbook) throw new Error('no workbook');
  await reader._parseRels(relations);
  await reader._parseWorkbook(workbook);
  const strings = part('xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings));
  else reader.sharedStrings = []; // inline strings only: known to have none
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);
}

/** A cell as text: dates as ISO dates, formulas by their result, rich text joined. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return String(value.error);
  }
  return '';
}

/** A row's cells checked on their own (the growers and plots are resolved by the command). */
export interface CheckedCells {
  line: number;
  reference: string | null;
  /** E.164 (identity's form), or null when the cell is empty. */
  phone: string | null;
  plot: string;
  quantityKg: number;
  amount: number;
  deliveryDate: string;
}

/**
 * Checks the cells of every row (quantity and amount under the one rule of every body:
 * parseTonnes, parseAmount; delivery date ISO or French, not past; empty → today + 5
 * months) and collects every problem. `normalizePhone` is identity's Benin phone rule.
 */
export function checkCells(
  rows: RawRow[],
  today: string,
  normalizePhone: (input: string) => string | null,
): { checked: CheckedCells[]; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const checked: CheckedCells[] = [];
  for (const { line, cells } of rows) {
    const before = problems.length;
    const problem = (column: FileColumn, reason: string) =>
      problems.push({ line, column: FILE_COLUMNS[column], reason });
    if (!cells.reference && !cells.phone) problem('reference', FILE_MESSAGES.growerRequired);
    let phone: string | null = null;
    if (cells.phone) {
      phone = normalizePhone(cells.phone);
      if (!phone) problem('phone', FILE_MESSAGES.phone);
    }
    const quantity = parseTonnes(cells.quantity);
    const quantityKg = 'kg' in quantity ? quantity.kg : null;
    if (!cells.quantity) problem('quantity', FILE_MESSAGES.required);
    else if ('error' in quantity) problem('quantity', NUMBER_MESSAGES[quantity.error]);
    const amount = parseAmount(cells.amount);
    if (!cells.amount) problem('amount', FILE_MESSAGES.required);
    else if (amount === null) problem('amount', FILE_MESSAGES.amount);
    let deliveryDate = defaultDeliveryDate(today);
    if (cells.deliveryDate) {
      const date = dateText(cells.deliveryDate);
      if (date === null) problem('deliveryDate', FILE_MESSAGES.date);
      else if (date < today) problem('deliveryDate', FILE_MESSAGES.pastDate);
      else deliveryDate = date;
    }
    if (problems.length === before) {
      checked.push({
        line,
        reference: cells.reference ? cells.reference.toUpperCase() : null,
        phone,
        plot: cells.plot,
        quantityKg: quantityKg!,
        amount: amount!,
        deliveryDate,
      });
    }
  }
  return { checked, problems };
}

/** 'YYYY-MM-DD' or 'DD/MM/YYYY' (a real calendar day) to an ISO date; null otherwise. */
function dateText(text: string): string | null {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const fr = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (fr) [y, m, d] = [Number(fr[3]), Number(fr[2]), Number(fr[1])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return null;
  }
  return date.toISOString().slice(0, 10);
}
