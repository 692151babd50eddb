import { drawQr, QR_MODULE_PT } from '../documents/qr.js';

/** What a grower's card prints: who he is and the code the depot and the scale look him up by. */
export interface GrowerCardData {
  name: string;
  /** `PRD-000123`: what the QR code holds, and what the collection centre's search accepts. */
  reference: string;
  cooperative: string | null;
}

/** ISO/IEC 7810 ID-1, the size of a bank card: 85,6 × 54 mm, in points. */
export const CARD_SIZE: [number, number] = [(85.6 / 25.4) * 72, (54 / 25.4) * 72];

/**
 * The grower's card as a PDF, one ID-1 page to print, cut and laminate: his name, his code in
 * large type and as a QR code that holds the code alone (no URL, nothing personal: a scanner
 * at the collection centre or the depot reads it offline), his cooperative. `compress: false`
 * leaves the text and the QR's squares readable for tests.
 */
export async function renderGrowerCardPdf(
  data: GrowerCardData,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  // Loaded at the first PDF, not with the API: pdfkit (and its font tables) is heavy to load.
  const { default: PDFDocument } = await import('pdfkit');
  const margin = 12;
  const doc = new PDFDocument({
    size: CARD_SIZE,
    // A small bottom margin: the footer's two lines sit low without pdfkit turning the page.
    margins: { top: margin, left: margin, right: margin, bottom: 4 },
    compress: options.compress ?? true,
    info: {
      Title: `Carte du producteur ${data.reference}`,
      Subject: 'Carte du producteur',
      Creator: 'Filière',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const [width, height] = CARD_SIZE;
  // The QR code of a PRD-000123 reference is 21 modules wide (version 1, correction M).
  const qrSide = 21 * QR_MODULE_PT;
  const textWidth = width - 2 * margin - qrSide - 8;

  doc.rect(0, 0, width, 22).fill('#1f5130');
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor('#ffffff')
    .text('Filière ananas — Carte du producteur', margin, 7, {
      width: width - 2 * margin,
      lineBreak: false,
    });
  doc.fillColor('#000000');

  doc.y = 32;
  drawQr(doc, data.reference, width - margin - qrSide);

  doc.font('Helvetica').fontSize(7).fillColor('#555555');
  doc.text('Producteur', margin, 32, { width: textWidth });
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#000000');
  doc.text(data.name, margin, doc.y, { width: textWidth, height: 26, ellipsis: true });
  doc.moveDown(0.3).font('Helvetica').fontSize(7).fillColor('#555555');
  doc.text('Code producteur', margin, doc.y, { width: textWidth });
  doc.font('Courier-Bold').fontSize(14).fillColor('#000000');
  doc.text(data.reference, margin, doc.y, { width: textWidth, lineBreak: false });
  if (data.cooperative) {
    doc.moveDown(0.4).font('Helvetica').fontSize(7).fillColor('#555555');
    doc.text('Coopérative', margin, doc.y, { width: textWidth });
    doc.font('Helvetica').fontSize(8).fillColor('#000000');
    doc.text(data.cooperative, margin, doc.y, { width: textWidth, height: 20, ellipsis: true });
  }

  doc.font('Helvetica').fontSize(6).fillColor('#555555');
  doc.text(
    'Présentez cette carte au dépôt d’intrants et au centre de collecte. Ne communiquez jamais les codes reçus par SMS à qui vous appelle.',
    margin,
    height - margin - 16,
    { width: width - 2 * margin, height: 18 },
  );
  doc.end();
  return done;
}
