import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { ZipFile } from 'yazl';
import { describe, expect, it } from 'vitest';
import { normalizeBeninPhone } from '../../../identity/index.js';
import { checkCells, readContractFile, type FileProblem } from './contract-file.js';

const HEADER = [
  'Référence producteur',
  'Téléphone',
  'Parcelle',
  'Quantité (t)',
  'Montant (FCFA)',
  'Date de livraison',
];

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contrats');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const problemsOf = async (promise: Promise<unknown>): Promise<FileProblem[]> => {
  try {
    await promise;
  } catch (error) {
    return (error as { data: { problems: FileProblem[] } }).data.problems;
  }
  throw new Error('expected a refusal');
};

/**
 * A hand-made .xlsx (what a crafted upload is): `rows` data rows of one inline-string cell
 * under a header, then — when `brokenTail` — XML that never closes, far past the rows. It
 * compresses to a few hundred KB, far under the 5 MB limit.
 */
async function craftedXlsx(rows: number, brokenTail: boolean): Promise<Buffer> {
  const text = (ref: string, value: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  const row = (r: number, values: string[]) =>
    `<row r="${r}">${values.map((v, i) => text(`${'ABC'[i]}${r}`, v)).join('')}</row>`;
  const body = [row(1, ['Référence producteur', 'Quantité (t)', 'Montant (FCFA)'])];
  for (let r = 2; r <= rows + 1; r += 1) body.push(row(r, [`P${r}`, '1', '1000']));
  const sheet =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    body.join('') +
    (brokenTail
      ? '<row r="999999"><c r="A999999" t="inlineStr"><is><t>fin'
      : '</sheetData></worksheet>');
  const files: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Contrats" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    'xl/worksheets/sheet1.xml': sheet,
  };
  const zip = new ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the create-many file', () => {
  it('streams an .xlsx and stops at the row limit: what lies past it is never read', async () => {
    // 200,000 rows and a broken tail: loading the whole workbook first found the file
    // unreadable (after holding every row in memory); the streaming reader stops at the
    // 10,001st data row and answers the limit.
    const crafted = await craftedXlsx(200_000, true);
    expect(crafted.length).toBeLessThan(5 * 1024 * 1024);
    expect(await problemsOf(readContractFile(crafted, 'lot.xlsx'))).toEqual([
      {
        line: 0,
        column: 'Fichier',
        reason: 'Le fichier dépasse 10 000 lignes de producteurs',
      },
    ]);
    // At the limit exactly, the file is read whole (and its rows kept).
    const atLimit = await craftedXlsx(3, false);
    const rows = await readContractFile(atLimit, 'lot.xlsx', { maxBytes: 1e6, maxRows: 3 });
    expect(rows.map((r) => [r.line, r.cells.reference])).toEqual([
      [2, 'P2'],
      [3, 'P3'],
      [4, 'P4'],
    ]);
  });

  it('reads an .xlsx: numbers, dates and text cells, empty rows skipped, lines as in the sheet', async () => {
    const file = await xlsx([
      HEADER,
      ['PRD-000001', '', 'Parcelle A', 2.5, 100000, new Date(Date.UTC(2027, 0, 15))],
      [],
      ['', '97000001', '', '1,125', '50 000', '15/02/2027'],
    ]);
    const rows = await readContractFile(file, 'lot.xlsx');
    expect(rows).toEqual([
      {
        line: 2,
        cells: {
          reference: 'PRD-000001',
          phone: '',
          plot: 'Parcelle A',
          quantity: '2.5',
          amount: '100000',
          deliveryDate: '2027-01-15',
        },
      },
      {
        line: 4,
        cells: {
          reference: '',
          phone: '97000001',
          plot: '',
          quantity: '1,125',
          amount: '50 000',
          deliveryDate: '15/02/2027',
        },
      },
    ]);
  });

  it('reads a workbook in any part order, every time (the parts after a sheet were dropped)', async () => {
    const file = await xlsx([
      HEADER,
      ['PRD-000001', '', 'Parcelle A', 2.5, 100000, new Date(Date.UTC(2027, 0, 15))],
    ]);
    const expected = [
      {
        line: 2,
        cells: {
          reference: 'PRD-000001',
          phone: '',
          plot: 'Parcelle A',
          quantity: '2.5',
          amount: '100000',
          deliveryDate: '2027-01-15',
        },
      },
    ];
    // ExcelJS writes the sheet before the shared strings and the workbook last; Excel writes
    // the workbook first, then the sheet, then the styles and the shared strings. The
    // streaming reader met the sheet first and deferred it; 1–2 % of reads then lost the
    // parts after it ('illisible ou endommagé'): 300 reads all alike, which at ~1.3 % lost
    // per read failed ~98 % of runs.
    const source = await JSZip.loadAsync(file);
    const excelOrder = new JSZip();
    const names = Object.keys(source.files).filter((n) => !source.files[n]!.dir);
    const first = [
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
    ];
    for (const name of [...first, ...names.filter((n) => !first.includes(n))]) {
      excelOrder.file(name, await source.file(name)!.async('nodebuffer'));
    }
    const reordered = await excelOrder.generateAsync({
      type: 'nodebuffer',
      compression: 'DEFLATE',
    });
    // One read after the other: reads side by side hid the race (none lost in 300).
    for (const workbook of [file, reordered]) {
      for (let read = 0; read < 150; read += 1) {
        expect(await readContractFile(workbook, 'lot.xlsx')).toEqual(expected);
      }
    }
  });

  it('refuses as unreadable a ZIP archive that holds no workbook', async () => {
    const zip = new JSZip();
    zip.file('xl/worksheets/sheet1.xml', '<worksheet/>');
    const archive = await zip.generateAsync({ type: 'nodebuffer' });
    expect(await problemsOf(readContractFile(archive, 'lot.xlsx'))).toEqual([
      { line: 0, column: 'Fichier', reason: 'Le fichier est illisible ou endommagé' },
    ]);
  });

  it('reads a .csv with ; or , separators, quotes, a BOM and headers in any order', async () => {
    const semicolon = Buffer.from(
      '\ufeffMontant (FCFA);Référence producteur;Quantité (t)\n"1 000";PRD-1;"2,5"\n',
    );
    expect(await readContractFile(semicolon, 'a.csv')).toEqual([
      {
        line: 2,
        cells: {
          reference: 'PRD-1',
          phone: '',
          plot: '',
          quantity: '2,5',
          amount: '1 000',
          deliveryDate: '',
        },
      },
    ]);
    const comma = Buffer.from('reference,quantity,amount,plot\nPRD-2,3,700,"Champ, nord"\n');
    expect((await readContractFile(comma, 'b.csv'))[0]!.cells.plot).toBe('Champ, nord');
  });

  it('names every bad cell by line, column and reason', () => {
    const { checked, problems } = checkCells(
      [
        {
          line: 2,
          cells: {
            reference: 'PRD-1',
            phone: '',
            plot: '',
            quantity: '2.5',
            amount: '1000',
            deliveryDate: '',
          },
        },
        {
          line: 3,
          cells: {
            reference: '',
            phone: '12',
            plot: '',
            quantity: '0',
            amount: '1.5',
            deliveryDate: '2026-13-01',
          },
        },
        {
          line: 4,
          cells: {
            reference: '',
            phone: '',
            plot: '',
            quantity: '',
            amount: '',
            deliveryDate: '01/01/2020',
          },
        },
      ],
      '2026-11-25',
      normalizeBeninPhone,
    );
    expect(checked).toEqual([
      {
        line: 2,
        reference: 'PRD-1',
        phone: null,
        plot: '',
        quantityKg: 2500,
        amount: 1000,
        deliveryDate: '2027-04-25',
      },
    ]);
    expect(problems).toEqual([
      { line: 3, column: 'Téléphone', reason: 'Numéro de téléphone invalide' },
      {
        line: 3,
        column: 'Quantité (t)',
        reason: 'Entré non valide : une quantité en tonnes, au plus trois décimales, non nulle',
      },
      {
        line: 3,
        column: 'Montant (FCFA)',
        reason: 'Entré non valide : un montant entier en FCFA, non nul',
      },
      { line: 3, column: 'Date de livraison', reason: 'Date invalide : AAAA-MM-JJ ou JJ/MM/AAAA' },
      {
        line: 4,
        column: 'Référence producteur',
        reason: 'Renseignez la référence ou le téléphone du producteur',
      },
      { line: 4, column: 'Quantité (t)', reason: 'Ce champ est obligatoire' },
      { line: 4, column: 'Montant (FCFA)', reason: 'Ce champ est obligatoire' },
      {
        line: 4,
        column: 'Date de livraison',
        reason: 'La date de livraison ne peut pas être passée',
      },
    ]);
  });

  it('refuses missing columns, too many rows, too many bytes, and a type that is not what the extension says', async () => {
    expect(
      await problemsOf(readContractFile(Buffer.from('Parcelle;Montant\nA;1\n'), 'a.csv')),
    ).toEqual([
      {
        line: 1,
        column: 'Référence producteur',
        reason: 'Colonne manquante : « Référence producteur » ou « Téléphone »',
      },
      { line: 1, column: 'Quantité (t)', reason: 'Colonne manquante : « Quantité (t) »' },
    ]);
    const limits = { maxBytes: 1000, maxRows: 2 };
    const three = await xlsx([
      HEADER,
      ['A', '', '', 1, 1],
      ['B', '', '', 1, 1],
      ['C', '', '', 1, 1],
    ]);
    expect(
      await problemsOf(readContractFile(three, 'a.xlsx', { maxBytes: 1e6, maxRows: 2 })),
    ).toEqual([
      { line: 0, column: 'Fichier', reason: 'Le fichier dépasse 2 lignes de producteurs' },
    ]);
    const csvThree = Buffer.from(`${HEADER.join(';')}\nA;;;1;1;\nB;;;1;1;\nC;;;1;1;\n`);
    expect((await problemsOf(readContractFile(csvThree, 'a.csv', limits)))[0]!.reason).toBe(
      'Le fichier dépasse 2 lignes de producteurs',
    );
    expect(
      (await problemsOf(readContractFile(Buffer.alloc(1001, 'a'), 'a.csv', limits)))[0]!.reason,
    ).toBe('Le fichier dépasse la taille maximale de 5 Mo');
    const type = 'Le fichier doit être un classeur Excel (.xlsx) ou un fichier CSV (.csv)';
    expect((await problemsOf(readContractFile(Buffer.from('a;b'), 'a.xlsx')))[0]!.reason).toBe(
      type,
    );
    expect((await problemsOf(readContractFile(three, 'a.csv')))[0]!.reason).toBe(type);
    expect(
      (await problemsOf(readContractFile(Buffer.from([0xff, 0xfe, 0x00, 0x41]), 'a.csv')))[0]!
        .reason,
    ).toBe(type);
    expect((await problemsOf(readContractFile(Buffer.from('a;b'), 'a.pdf')))[0]!.reason).toBe(type);
  });
});
