import { parse } from 'csv-parse/sync';
import { ValidationError } from '@filiere/platform';
import type { StatementLine } from '../domain/index.js';
import { readBankCsvRow, type BankCsvMapping } from './bank-csv-row.js';

/**
 * A bank's CSV statement read with the column mapping saved for that bank: one line per row
 * (`readBankCsvRow`). A row that cannot be read refuses the whole file, naming its row number.
 */
export function parseBankCsv(content: string, mapping: BankCsvMapping): StatementLine[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(content, {
      columns: true,
      delimiter: mapping.delimiter,
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch {
    throw new ValidationError('Relevé CSV illisible');
  }
  return rows.map((row, i) => {
    const read = readBankCsvRow(row, mapping);
    if ('error' in read) {
      throw new ValidationError(`Ligne ${i + 2} du relevé : ${read.error}`, { row: i + 2 });
    }
    return read.line;
  });
}
