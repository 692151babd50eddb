import { formatDay, formatFcfa, formatInstant, formatTonnes } from './contract-pdf.js';
import { DEBT_KIND_LABELS } from './statement-pdf.js';
import { drawQr } from '../documents/qr.js';

/** Everything printed on a grower's payment receipt (read by ContractPdfs, drawn here). */
export interface ReceiptPdfData {
  /** The contract's number (LIV-…). */
  reference: string;
  grower: { name: string; reference: string | null };
  aggregator: { name: string; organization: string | null };
  deliveredKg: number;
  deliveredOn: string | null;
  /** What the delivery is worth (the gross). */
  deliveredAmount: number;
  /** Left unpaid because the aggregator's balance was short (0 when paid in full). */
  shortfall: number;
  /** Each debt recovered from the gross, by creditor, in the settlement's order. */
  recoveries: { kind: string; creditor: string; amount: number }[];
  growerNet: number;
  /** Where the net went: the grower's mobile money number (masked), or his Filière wallet. */
  paidTo: string;
  paidAt: string;
  /** The settlement's event: where the payment stands in the ledger. */
  ledger: { position: number; hash: string } | null;
  /** The public page the QR code opens, and the receipt's reference on it. */
  verification: { reference: string; url: string };
}

/**
 * The grower's payment receipt (A4, built-in fonts, French only): what was delivered, the
 * gross, each debt recovered and by whom, the net and where it was paid, then the same
 * 'Vérification' block as the contract and the statement (ledger point and QR code of its
 * public page). `compress: false` leaves the text readable for tests.
 */
export async function renderReceiptPdf(
  data: ReceiptPdfData,
  options: { compress?: boolean; now?: Date } = {},
): Promise<Buffer> {
  // Loaded at the first PDF, not with the API: pdfkit (and its font tables) is heavy to load.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `Reçu de paiement ${data.reference}`,
      Subject: 'Reçu de paiement',
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
  const section = (title: string) => {
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

  doc.font('Helvetica-Bold').fontSize(18).fillColor('#1f5130').text('Reçu de paiement');
  doc.font('Helvetica').fontSize(11).fillColor('#000000');
  line('Contrat de livraison', data.reference);
  line('Payé le', formatInstant(data.paidAt));
  line(
    'Producteur',
    data.grower.reference ? `${data.grower.name} (${data.grower.reference})` : data.grower.name,
  );
  line(
    'Agrégateur',
    data.aggregator.organization
      ? `${data.aggregator.name}, ${data.aggregator.organization}`
      : data.aggregator.name,
  );

  section('Livraison');
  line('Quantité livrée', formatTonnes(data.deliveredKg));
  if (data.deliveredOn) line('Livrée le', formatDay(data.deliveredOn));
  line('Montant brut', formatFcfa(data.deliveredAmount));
  if (data.shortfall > 0) line('Restant dû par l’agrégateur', formatFcfa(data.shortfall));

  section('Dettes recouvrées');
  if (data.recoveries.length === 0) {
    doc.font('Helvetica').fontSize(10).text('Aucune dette recouvrée sur ce paiement.', left);
  }
  for (const r of data.recoveries) {
    line(`${DEBT_KIND_LABELS[r.kind] ?? 'Dette'} due à ${r.creditor}`, formatFcfa(r.amount));
  }

  section('Net versé');
  line('Net versé au producteur', formatFcfa(data.growerNet));
  line('Versé sur', data.paidTo);

  section('Vérification');
  doc.font('Helvetica').fontSize(9);
  if (data.ledger) {
    doc.text(`Paiement inscrit au registre : position ${data.ledger.position}`, left);
    doc.font('Courier').fontSize(8).text(data.ledger.hash, left);
  }
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(
      'Scannez le code QR : la page publique confirme ce reçu et son empreinte, sans aucun nom ni montant.',
      left,
    );
  drawQr(doc, data.verification.url, left);
  doc.font('Courier').fontSize(8).text(data.verification.url, left);

  doc
    .moveDown(1.5)
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555555')
    .text(`Document généré le ${formatInstant((options.now ?? new Date()).toISOString())}`, left);
  doc.end();
  return done;
}
