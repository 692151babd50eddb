import {
  formatDay,
  formatFcfa,
  formatInstant,
  formatTonnes,
  STATUS_LABELS,
} from './contract-pdf.js';
import { drawQr } from '../documents/qr.js';

/** Everything printed on a grower's statement (read by GrowerStatements, drawn here). */
export interface GrowerStatementData {
  grower: {
    id: string;
    name: string;
    reference: string;
    phone: string | null;
    cooperative: string | null;
  };
  /** Benin days, inclusive (YYYY-MM-DD). */
  period: { from: string; to: string };
  contracts: {
    reference: string;
    status: string;
    aggregator: string;
    createdOn: string;
    deliveryDate: string;
    quantityKg: number;
    amount: number;
    deliveredKg: number | null;
    deliveredOn: string | null;
    deliveredAmount: number | null;
    recovered: number | null;
    growerNet: number | null;
  }[];
  recoveries: {
    reference: string;
    kind: string;
    contractReference: string;
    recoveredOn: string;
    amount: number;
  }[];
  outstanding: {
    reference: string;
    kind: string;
    openedOn: string;
    principal: number;
    remaining: number;
  }[];
  totals: {
    contracts: number;
    contractedKg: number;
    contractedAmount: number;
    deliveredKg: number;
    deliveredAmount: number;
    recovered: number;
    netPaid: number;
    outstanding: number;
  };
}

/** The debt families as the web names them (contracts.json `debtKinds`). */
export const DEBT_KIND_LABELS: Record<string, string> = {
  AVANCE_SUR_INTRANT: 'Avance sur intrants',
  AVANCE_SUR_ANANAS: 'Avance sur ananas',
  FINANCEMENT_SOCIAL: 'Financement social',
};

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/**
 * The grower's statement (relevé) as a PDF: A4, built-in fonts, one table per part (contracts
 * and deliveries, debts recovered, debts still owed) and the totals. `compress: false` leaves
 * the text readable for tests.
 */
export async function renderGrowerStatementPdf(
  data: GrowerStatementData,
  options: {
    compress?: boolean;
    now?: Date;
    /** The statement's public reference, its page's URL and the ledger head it was issued at. */
    verification?: {
      reference: string;
      url: string;
      ledger: { position: number; hash: string } | null;
    };
  } = {},
): Promise<Buffer> {
  // Loaded at the first PDF, not with the API: pdfkit (and its font tables) is heavy to load.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    compress: options.compress ?? true,
    info: {
      Title: `Relevé du producteur ${data.grower.reference}`,
      Subject: 'Relevé du producteur',
      Creator: 'Filière',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const right = () => doc.page.width - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  const section = (title: string) => {
    if (doc.y > bottom() - 60) doc.addPage();
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).fillColor('#1f5130');
    doc.text(title, left);
    doc
      .moveTo(left, doc.y + 2)
      .lineTo(right(), doc.y + 2)
      .strokeColor('#c9d8cd')
      .stroke();
    doc.moveDown(0.4).fillColor('#000000');
  };
  const line = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).text(`${label} : `, left, doc.y, { continued: true });
    doc.font('Helvetica').text(value);
  };
  /** One table row (header in bold); a new page (with the header again) when it would not fit. */
  const row = (columns: Column[], cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    const height = Math.max(
      ...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 4 })),
    );
    if (doc.y + height > bottom()) {
      doc.addPage();
      if (!bold)
        row(
          columns,
          columns.map((c) => c.title),
          true,
        );
      doc.font('Helvetica').fontSize(8);
    }
    const top = doc.y;
    let x = left;
    cells.forEach((cell, i) => {
      const column = columns[i]!;
      doc.text(cell, x + 2, top, { width: column.width - 4, align: column.align ?? 'left' });
      x += column.width;
    });
    doc.x = left;
    doc.y = top + height + 4;
    if (bold) {
      doc
        .moveTo(left, doc.y - 2)
        .lineTo(right(), doc.y - 2)
        .strokeColor('#c9d8cd')
        .stroke();
    }
  };
  const table = (columns: Column[], rows: string[][], empty: string) => {
    if (rows.length === 0) {
      doc.font('Helvetica').fontSize(10).text(empty, left);
      return;
    }
    row(
      columns,
      columns.map((c) => c.title),
      true,
    );
    for (const cells of rows) row(columns, cells, false);
  };

  doc.font('Helvetica-Bold').fontSize(18).fillColor('#1f5130').text('Relevé du producteur');
  doc.font('Helvetica').fontSize(11).fillColor('#000000');
  line('Période', `du ${formatDay(data.period.from)} au ${formatDay(data.period.to)}`);
  line('Producteur', `${data.grower.name} (${data.grower.reference})`);
  line('Téléphone', data.grower.phone ?? 'Non renseigné');
  line('Coopérative', data.grower.cooperative ?? 'Aucune coopérative');

  section('Synthèse');
  line('Contrats de livraison', String(data.totals.contracts));
  line(
    'Quantité contractée',
    `${formatTonnes(data.totals.contractedKg)} pour ${formatFcfa(data.totals.contractedAmount)}`,
  );
  line(
    'Quantité livrée',
    `${formatTonnes(data.totals.deliveredKg)} pour ${formatFcfa(data.totals.deliveredAmount)}`,
  );
  line('Dettes recouvrées', formatFcfa(data.totals.recovered));
  line('Net versé au producteur', formatFcfa(data.totals.netPaid));
  line('Dettes restant dues', formatFcfa(data.totals.outstanding));

  section('Contrats et livraisons');
  table(
    [
      { title: 'Référence', width: 62 },
      { title: 'Agrégateur', width: 82 },
      { title: 'Statut', width: 58 },
      { title: 'Contrat', width: 78, align: 'right' },
      { title: 'Livraison', width: 78, align: 'right' },
      { title: 'Dettes recouvrées', width: 78, align: 'right' },
      { title: 'Net versé', width: 79, align: 'right' },
    ],
    data.contracts.map((c) => [
      `${c.reference}\n${formatDay(c.createdOn)}`,
      c.aggregator,
      STATUS_LABELS[c.status] ?? c.status,
      `${formatTonnes(c.quantityKg)}\n${formatFcfa(c.amount)}\nle ${formatDay(c.deliveryDate)}`,
      c.deliveredKg === null
        ? '—'
        : [
            formatTonnes(c.deliveredKg),
            c.deliveredAmount === null ? null : formatFcfa(c.deliveredAmount),
            c.deliveredOn ? `le ${formatDay(c.deliveredOn)}` : null,
          ]
            .filter(Boolean)
            .join('\n'),
      c.recovered === null ? '—' : formatFcfa(c.recovered),
      c.growerNet === null || c.status !== 'COMPLETED' ? '—' : formatFcfa(c.growerNet),
    ]),
    'Aucun contrat de livraison sur la période.',
  );

  section('Dettes recouvrées');
  table(
    [
      { title: 'Date', width: 70 },
      { title: 'Dette', width: 90 },
      { title: 'Nature', width: 135 },
      { title: 'Contrat', width: 100 },
      { title: 'Montant', width: 120, align: 'right' },
    ],
    data.recoveries.map((r) => [
      formatDay(r.recoveredOn),
      r.reference,
      DEBT_KIND_LABELS[r.kind] ?? r.kind,
      r.contractReference,
      formatFcfa(r.amount),
    ]),
    'Aucune dette recouvrée sur la période.',
  );

  section('Dettes restant dues (à la date du relevé)');
  table(
    [
      { title: 'Ouverte le', width: 70 },
      { title: 'Dette', width: 90 },
      { title: 'Nature', width: 135 },
      { title: 'Montant initial', width: 100, align: 'right' },
      { title: 'Reste dû', width: 120, align: 'right' },
    ],
    data.outstanding.map((d) => [
      formatDay(d.openedOn),
      d.reference,
      DEBT_KIND_LABELS[d.kind] ?? d.kind,
      formatFcfa(d.principal),
      formatFcfa(d.remaining),
    ]),
    'Aucune dette en cours.',
  );

  if (options.verification) {
    const v = options.verification;
    doc
      .moveDown(1)
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('#1f5130')
      .text('Vérification', left);
    doc.font('Helvetica').fontSize(9).fillColor('#000000');
    if (v.ledger) {
      doc.text(`Registre à l’émission : position ${v.ledger.position}`, left);
      doc.font('Courier').fontSize(8).text(v.ledger.hash, left);
    }
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(
        'Scannez le code QR : la page publique confirme ce relevé et son empreinte, sans aucun nom ni montant.',
        left,
      );
    drawQr(doc, v.url, left);
    doc.font('Courier').fontSize(8).text(v.url, left);
  }

  doc
    .moveDown(1.5)
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555555')
    .text(
      `Document généré le ${formatInstant((options.now ?? new Date()).toISOString())} — producteur ${data.grower.id}`,
      left,
    );
  doc.end();
  return done;
}
