import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake provider received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** How the fake answers: JSON, a raw body, or never (to exercise timeouts). */
export type FakeAnswer = { status?: number; json?: unknown; raw?: string } | 'hang';

/**
 * A local HTTP server (node:http, free port) that answers as a payment provider does, for
 * adapter tests. Set `answer` per test; every request is recorded.
 */
export class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  answer: (request: RecordedRequest) => FakeAnswer = () => ({ status: 404, json: {} });
  private server: Server | undefined;
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // keep the raw text
        }
        const recorded = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
        };
        this.requests.push(recorded);
        const answer = this.answer(recorded);
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(answer.raw ?? JSON.stringify(answer.json ?? {}));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
