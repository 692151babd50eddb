import { createRequire } from 'node:module';
import { QR_MODULE_PT } from '../documents/qr.js';

// jsqr is CommonJS whose typings declare an ES default export: required, typed here.
const jsQR = createRequire(import.meta.url)('jsqr') as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

/** WinAnsi's punctuation above 0x7f that latin1 does not have (’ – — “ ”). */
const WIN_ANSI: Record<string, string> = {
  '\u0092': '’',
  '\u0096': '–',
  '\u0097': '—',
  '\u0093': '“',
  '\u0094': '”',
};

/** The text of an uncompressed pdfkit PDF: each TJ array's hex strings, one line each. */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const match of pdf.toString('latin1').matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    lines.push(
      [...match[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
        .map((m) => Buffer.from(m[1]!, 'hex').toString('latin1'))
        .join(''),
    );
  }
  return lines.join('\n').replace(/[\u0092-\u0097]/g, (c) => WIN_ANSI[c] ?? c);
}

/** How many pages an uncompressed pdfkit PDF has. */
export const pdfPageCount = (pdf: Buffer): number =>
  [...pdf.toString('latin1').matchAll(/\/Type \/Page\b/g)].length;

/**
 * The QR code printed in an uncompressed PDF, decoded: its modules are the squares of side
 * QR_MODULE_PT (`x y w h re`), redrawn as pixels (4 per module, a quiet zone of 4 modules)
 * and read by jsQR, as a phone's camera would.
 */
export function decodePrintedQr(pdf: Buffer): string | null {
  const m = QR_MODULE_PT;
  const squares = [
    ...pdf.toString('latin1').matchAll(/(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re/g),
  ]
    .map((r) => r.slice(1).map(Number) as [number, number, number, number])
    .filter(([, , w, h]) => Math.abs(w - m) < 1e-6 && Math.abs(h - m) < 1e-6);
  if (squares.length === 0) return null;
  const minX = Math.min(...squares.map((s) => s[0]));
  const minY = Math.min(...squares.map((s) => s[1]));
  const cells = squares.map(([x, y]) => [Math.round((x - minX) / m), Math.round((y - minY) / m)]);
  const count = Math.max(...cells.flat()) + 1;
  const scale = 4;
  const side = (count + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [col, row] of cells) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = (((row! + 4) * scale + dy) * side + (col! + 4) * scale + dx) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  }
  return jsQR(pixels, side, side)?.data ?? null;
}
