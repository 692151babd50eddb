import type { GrowersStatsAnswer, TransactionsStatsAnswer } from './schemas.js';

/** The most growers one download holds (the board's sheet is written in memory). */
export const MAX_BOARD_EXPORT_ROWS = 50_000;

/**
 * The reporting board as an .xlsx: sheet 'Transactions' (the six cards), sheet 'Producteurs'
 * (the three cards, then the growers table: Nom, Prénoms, Téléphone, Superficie emblavée (ha)).
 * French headers; amounts as integer F CFA numbers, areas as numbers.
 */
export async function boardXlsx(input: {
  clusterLabel: string;
  transactions: TransactionsStatsAnswer;
  growers: GrowersStatsAnswer['data'];
  cards: GrowersStatsAnswer['cards'];
}): Promise<Buffer> {
  // Loaded at the first download, not with the API: exceljs is the heaviest library to load.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Filière ananas';
  const tx = book.addWorksheet('Transactions');
  tx.columns = [
    { header: 'Indicateur', width: 34 },
    { header: 'Valeur', width: 18 },
  ];
  const t = input.transactions;
  tx.addRows([
    ['Cluster', input.clusterLabel],
    ['Nombre de retraits', t.countDebit],
    ['Montant des retraits (FCFA)', t.totalDebit],
    ['Nombre d’approvisionnements', t.countSupplies],
    ['Montant des approvisionnements (FCFA)', t.totalSupplies],
    ['Nombre de transferts', t.countTransfer],
    ['Montant des transferts (FCFA)', t.totalTransfer],
  ]);
  const sheet = book.addWorksheet('Producteurs');
  sheet.columns = [
    { header: 'Nom', width: 24 },
    { header: 'Prénoms', width: 28 },
    { header: 'Téléphone', width: 18 },
    { header: 'Superficie emblavée (ha)', width: 24 },
  ];
  for (const g of input.growers) {
    sheet.addRow([g.lastname, g.firstname, g.phone ?? '', g.areaSown]);
  }
  sheet.addRow([]);
  sheet.addRow(['Producteurs', input.cards.growers]);
  sheet.addRow(['Parcelles', input.cards.plots]);
  sheet.addRow(['Superficie emblavée totale (ha)', input.cards.areaSown]);
  tx.getRow(1).font = { bold: true };
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}
