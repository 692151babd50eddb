import { SMTPServer } from 'smtp-server';
import getPort from 'get-port';

/** A real SMTP server for tests: collects every message and finds links in them. */
export async function startTestSmtp() {
  const messages: Array<{ to: string[]; raw: string }> = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  const port = await getPort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The first link to `path` in the latest mail to `to` (quoted-printable decoded). */
    async linkTo(to: string, path: string): Promise<URL> {
      for (let i = 0; i < 100; i++) {
        const mail = [...messages].reverse().find((m) => m.to.includes(to));
        if (mail) {
          const text = decodeQuotedPrintable(mail.raw);
          const match = text.match(new RegExp(`https?://[^\\s"<]+${path}\\?[^\\s"<]+`));
          if (match) return new URL(match[0].replaceAll('&amp;', '&'));
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      throw new Error(`no mail to ${to} with a link to ${path}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
