import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import {
  contentTypes,
  coreProps,
  escapeXml,
  rootRels,
  sharedStrings,
  sheetEnd,
  sheetStart,
  STYLE,
  styles,
  workbook,
  workbookRels,
} from './xlsx-parts.js';
import { ZipArchive } from './zip-archive.js';

/** A sheet holds 1,048,576 rows: the header and this many data rows. */
export const MAX_SHEET_ROWS = 1_048_575;

/** Text of a page is handed to the deflater in chunks of about this many characters. */
const CHUNK = 128 * 1024;

/**
 * The cells of one sheet: free text inline, the labels every row repeats (`shared`) as shared
 * strings, amounts as `#,##0` numbers, dates as `dd/mm/yyyy hh:mm` serials.
 */
export class SheetCells {
  readonly index: Map<string, number>;

  constructor(readonly shared: readonly string[]) {
    this.index = new Map(shared.map((s, i) => [s, i]));
  }

  text(ref: string, value: string | null | undefined): string {
    if (!value) return '';
    const shared = this.index.get(value);
    if (shared !== undefined) return `<c r="${ref}" t="s"><v>${shared}</v></c>`;
    const clipped = value.length > 32_767 ? value.slice(0, 32_767) : value;
    const space = clipped.trim() === clipped ? '' : ' xml:space="preserve"';
    return `<c r="${ref}" t="inlineStr"><is><t${space}>${escapeXml(clipped)}</t></is></c>`;
  }

  amount(ref: string, value: number): string {
    return `<c r="${ref}" s="${STYLE.amount}"><v>${value}</v></c>`;
  }

  /** `serial`: Excel's date serial, already in the sheet's time zone. */
  date(ref: string, serial: number): string {
    return `<c r="${ref}" s="${STYLE.date}"><v>${serial}</v></c>`;
  }

  /** Row 1: the headers, bold (each header must be one of `shared`). */
  header(headers: readonly string[]): string {
    const cells = headers.map(
      (h, i) =>
        `<c r="${String.fromCharCode(65 + i)}1" s="${STYLE.header}" t="s"><v>${this.index.get(h)}</v></c>`,
    );
    return `<row r="1">${cells.join('')}</row>`;
  }
}

export interface SheetSpec<Row> {
  /** The sheet's (and the workbook's only) tab name. */
  name: string;
  columns: readonly { header: string; width: number }[];
  /** Labels written once as shared strings: the headers and the labels rows repeat. */
  shared: readonly string[];
  /** Hands the rows to `onPage`, a page at a time, at most `max` (see cursor-pages.ts). */
  pages(onPage: (rows: Row[]) => Promise<void>, max: number): Promise<number>;
  /** One row as a `<row r="n">` (n from 2: the header is row 1). */
  render(n: number, row: Row, cells: SheetCells): string;
}

export interface SheetWriteOptions {
  /** zlib level, 1 (fast) … 9 (small); default 4. */
  level?: number;
}

/**
 * Streams one sheet as an .xlsx into `target`: its rows, a page at a time, become sheet XML
 * written by hand and are deflated into a streaming ZIP (yazl, `zip-archive.ts`), so memory
 * stays flat whatever the row count. Calls `onProgress` after each page with the rows
 * written so far; returns the rows written. The transactions and the supplies exports both
 * write through it.
 */
export async function writeSheetXlsx<Row>(
  spec: SheetSpec<Row>,
  target: { stream: Writable } | { filename: string },
  onProgress?: (rows: number) => Promise<void> | void,
  options: SheetWriteOptions = {},
): Promise<number> {
  const out = 'stream' in target ? target.stream : createWriteStream(target.filename);
  try {
    const cells = new SheetCells(spec.shared);
    const zip = new ZipArchive(out, options.level ?? 4);
    zip.add('[Content_Types].xml', contentTypes());
    zip.add('_rels/.rels', rootRels());
    zip.add('docProps/core.xml', coreProps('Filière', new Date()));
    zip.add('xl/workbook.xml', workbook(spec.name));
    zip.add('xl/_rels/workbook.xml.rels', workbookRels());
    zip.add('xl/styles.xml', styles());
    zip.add('xl/sharedStrings.xml', sharedStrings(spec.shared));
    const sheet = zip.entry('xl/worksheets/sheet1.xml');
    await sheet.write(
      sheetStart(spec.columns.map((c) => c.width)) +
        cells.header(spec.columns.map((c) => c.header)),
    );
    let written = 0;
    await spec.pages(async (rows) => {
      let chunk = '';
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        // Rendered rows are let go at once: fewer survive to the old generation.
        rows[i] = undefined as never;
        chunk += spec.render(++written + 1, row, cells);
        if (chunk.length >= CHUNK) {
          await sheet.write(chunk);
          chunk = '';
        }
      }
      if (chunk) await sheet.write(chunk);
      await onProgress?.(written);
    }, MAX_SHEET_ROWS);
    await sheet.write(sheetEnd());
    await sheet.end();
    await zip.finish();
    if ('filename' in target && !out.closed) await once(out, 'close');
    return written;
  } catch (error) {
    out.destroy(error as Error);
    throw error;
  }
}
