import QRCode from 'qrcode';

/** The side of one QR module on the page, in points (0,35 mm: read by any phone at 20 cm). */
export const QR_MODULE_PT = 2.5;

/** The public verification page a document's QR code opens. */
export function verificationUrl(publicUrl: string, reference: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verifier/${reference}`;
}

/** The part of a pdfkit document the QR drawing uses. */
interface Page {
  y: number;
  page: { height: number; margins: { bottom: number; left: number } };
  addPage(): unknown;
  rect(x: number, y: number, w: number, h: number): this;
  fill(color: string): this;
  save(): this;
  restore(): this;
}

/**
 * Draws the QR code of `url` as vector squares (one per dark module, error correction M) at
 * the left margin below the current line, on a new page when it would not fit; answers the
 * side drawn. Vectors, not an image: sharp at any print size, and the modules stay readable
 * in the PDF's content (tests decode them back).
 */
export function drawQr(doc: Page, url: string, x?: number): number {
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const side = count * QR_MODULE_PT;
  if (doc.y + side + 8 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const left = x ?? doc.page.margins.left;
  const top = doc.y + 4;
  doc.save();
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.modules.get(row, col)) {
        doc.rect(left + col * QR_MODULE_PT, top + row * QR_MODULE_PT, QR_MODULE_PT, QR_MODULE_PT);
      }
    }
  }
  doc.fill('#000000').restore();
  doc.y = top + side + 6;
  return side;
}
