import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/**
 * A still video (YUV4MPEG2, 4:2:0, two identical frames) of a white page with the QR code of
 * `text` in its middle, as Chromium's fake camera plays it (launchBrowserWithCamera): 8
 * pixels a module and a quiet zone of 4 modules, as a phone sees a printed card at 15 cm.
 */
export function writeQrVideo(file: string, text: string, width = 640, height = 480): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const scale = 8;
  const side = (count + 8) * scale;
  const left = Math.floor((width - side) / 2) + 4 * scale;
  const top = Math.floor((height - side) / 2) + 4 * scale;
  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (!qr.modules.get(row, col)) continue;
      for (let dy = 0; dy < scale; dy++) {
        const start = (top + row * scale + dy) * width + left + col * scale;
        luma.fill(16, start, start + scale);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, frame, frame]));
}
