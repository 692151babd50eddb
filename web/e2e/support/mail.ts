import { SMTPServer } from 'smtp-server';

export interface MailBox {
  url: string;
  /** The first link to `path` in the latest mail to `to`; waits for it to arrive. */
  linkTo(to: string, path: string, timeoutMs?: number): Promise<URL>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startMailBox(port: number): Promise<MailBox> {
  const messages: { to: string[]; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          text: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    async linkTo(to, linkPath, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      const pattern = new RegExp(`https?://[^\\s"<]+${linkPath}\\?[^\\s"<]+`);
      while (Date.now() < deadline) {
        const mail = [...messages].reverse().find((m) => m.to.includes(to));
        const match = mail?.text.match(pattern);
        if (match) return new URL(match[0].replaceAll('&amp;', '&'));
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} with a link to ${linkPath}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
