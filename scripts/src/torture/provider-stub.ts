import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stub behaves: answer, never answer (the adapter times out), or HTTP 500. */
export type StubMode = 'ok' | 'hang' | 'error500';

interface StubTransaction {
  id: number;
  reference: string;
  amount: number;
  status: 'approved' | 'declined';
}

interface StubPayout {
  id: number;
  reference: string;
  amount: number;
  status: 'pending' | 'sent' | 'failed';
}

/** Payout amounts ending in this digit are refused by the provider (status `failed`). */
export const FAILING_PAYOUT_DIGIT = 7;

/**
 * The payment provider of the bank test: an HTTP server answering as FedaPay does
 * (`GET /v1/transactions/{id}`, `POST /v1/payouts`, `PUT /v1/payouts/start`, see
 * services/api/src/wallet/providers/fedapay.ts). Payers "pay" through `pay()` (what the
 * widget would do); payouts are deduplicated on `merchant_reference` as a real provider
 * does, and remembered so that the checker can compare what left the ledger with what the
 * provider paid. `mode` switches it to hanging (the adapter's 10 s timeout) or to 500s.
 * While hanging, a payout is still recorded before the answer is withheld: the request
 * reached the provider but its answer was lost, the case idempotent retries must survive.
 */
export class ProviderStub {
  mode: StubMode = 'ok';
  readonly transactions = new Map<number, StubTransaction>();
  /** By merchant reference (the withdrawal id). */
  readonly payouts = new Map<string, StubPayout>();
  requests = 0;
  private nextId = 1000;
  private server: Server | undefined;
  private readonly hanging = new Set<ServerResponse>();

  /** A payer completes (or refuses) the widget for `reference`: the provider's transaction id. */
  pay(reference: string, amount: number, approved: boolean): string {
    const id = this.nextId++;
    this.transactions.set(id, {
      id,
      reference,
      amount,
      status: approved ? 'approved' : 'declined',
    });
    return String(id);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers the requests left hanging (with a 500, as a proxy would) and keeps serving. */
  releaseHanging(): void {
    for (const res of this.hanging) {
      if (!res.writableEnded) res.destroy();
    }
    this.hanging.clear();
  }

  async stop(): Promise<void> {
    this.releaseHanging();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse, text: string): void {
    this.requests++;
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // keep {}
    }
    const mode = this.mode;
    if (mode === 'error500') return send(res, 500, { message: 'Internal Server Error' });
    const url = new URL(req.url ?? '/', 'http://stub');
    const answer = this.route(req.method ?? 'GET', url.pathname, body);
    if (mode === 'hang') {
      this.hanging.add(res);
      return;
    }
    send(res, answer.status, answer.json);
  }

  private route(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): { status: number; json: unknown } {
    const transaction = /^\/v1\/transactions\/([^/]+)$/.exec(path);
    if (method === 'GET' && transaction) {
      const found = this.transactions.get(Number(decodeURIComponent(transaction[1]!)));
      if (!found) return { status: 404, json: { message: 'Transaction introuvable' } };
      return {
        status: 200,
        json: {
          'v1/transaction': {
            id: found.id,
            status: found.status,
            amount: found.amount,
            merchant_reference: found.reference,
            custom_metadata: { reference: found.reference },
          },
        },
      };
    }
    if (method === 'POST' && path === '/v1/payouts') {
      const reference = String(body.merchant_reference ?? '');
      const amount = Number(body.amount);
      let payout = this.payouts.get(reference);
      if (!payout) {
        payout = { id: this.nextId++, reference, amount, status: 'pending' };
        this.payouts.set(reference, payout);
      }
      return { status: 201, json: { 'v1/payout': { id: payout.id, status: payout.status } } };
    }
    if (method === 'PUT' && path === '/v1/payouts/start') {
      const ids = Array.isArray(body.payouts)
        ? body.payouts.map((p) => Number((p as { id?: unknown }).id))
        : [];
      const started = [...this.payouts.values()].filter((p) => ids.includes(p.id));
      for (const payout of started) {
        if (payout.status === 'pending') {
          payout.status = payout.amount % 10 === FAILING_PAYOUT_DIGIT ? 'failed' : 'sent';
        }
      }
      return {
        status: 200,
        json: { 'v1/payouts': started.map((p) => ({ id: p.id, status: p.status })) },
      };
    }
    return { status: 404, json: { message: 'Not found' } };
  }
}

function send(res: ServerResponse, status: number, json: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(json));
}
