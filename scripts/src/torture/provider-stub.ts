import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stub behaves: answer, never answer (the adapter times out), or HTTP 500. */
export type StubMode = 'ok' | 'hang' | 'error500';

interface StubTransaction {
  id: number;
  reference: string;
  amount: number;
  status: 'approved' | 'declined';
  /** When the payer paid (or refused). */
  at: string;
}

interface StubPayout {
  id: number;
  reference: string;
  amount: number;
  status: 'pending' | 'sent' | 'failed';
  /** When it was sent or failed. */
  at: string | null;
}

/** Payout amounts ending in this digit are refused by the provider (status `failed`). */
export const FAILING_PAYOUT_DIGIT = 7;

/**
 * The payment provider of the bank test: an HTTP server answering as FedaPay does
 * (`GET /v1/transactions/{id}`, `GET /v1/transactions/search?q=`, without `q` its statement a page
 * at a time, `GET /v1/payouts/search`, `POST /v1/payouts`, `PUT /v1/payouts/start`, see
 * services/api/src/wallet/providers/fedapay.ts). Payers "pay" through `pay()` (what the
 * widget would do); every payout is remembered (created, then started: `sent`, or `failed`
 * for amounts ending in 7; `GET /v1/payouts/{id}` reads it back) so that the checker can
 * compare what left the ledger with what the provider paid. `mode` switches it to hanging (the adapter's 10 s timeout) or to 500s.
 * While hanging, a request is still carried out before the answer is withheld: it reached
 * the provider but its answer was lost, the case retries must survive without paying twice.
 */
export class ProviderStub {
  mode: StubMode = 'ok';
  readonly transactions = new Map<number, StubTransaction>();
  /** By payout id; `merchant_reference` is the withdrawal id. */
  readonly payouts = new Map<number, StubPayout>();
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
      at: new Date().toISOString(),
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
    const answer = this.route(req.method ?? 'GET', url.pathname, body, url.searchParams);
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
    query: URLSearchParams,
  ): { status: number; json: unknown } {
    if (method === 'GET' && path === '/v1/transactions/search') {
      // As FedaPay's search: every transaction whose text holds the query (the reference), or
      // without a query every transaction, a page at a time (its own statement).
      const q = query.get('q');
      const found = [...this.transactions.values()].filter(
        (t) => q === null || (q !== '' && t.reference.includes(q)),
      );
      return { status: 200, json: paged('v1/transactions', found.map(describeTransaction), query) };
    }
    if (method === 'GET' && path === '/v1/payouts/search') {
      return {
        status: 200,
        json: paged('v1/payouts', [...this.payouts.values()].map(describePayout), query),
      };
    }
    const transaction = /^\/v1\/transactions\/([^/]+)$/.exec(path);
    if (method === 'GET' && transaction) {
      const found = this.transactions.get(Number(decodeURIComponent(transaction[1]!)));
      if (!found) return { status: 404, json: { message: 'Transaction introuvable' } };
      return { status: 200, json: { 'v1/transaction': describeTransaction(found) } };
    }
    if (method === 'POST' && path === '/v1/payouts') {
      // As FedaPay: every POST creates a payout (pending: no money moves until started).
      const payout: StubPayout = {
        id: this.nextId++,
        reference: String(body.merchant_reference ?? ''),
        amount: Number(body.amount),
        status: 'pending',
        at: null,
      };
      this.payouts.set(payout.id, payout);
      return { status: 201, json: { 'v1/payout': describePayout(payout) } };
    }
    if (method === 'PUT' && path === '/v1/payouts/start') {
      const ids = Array.isArray(body.payouts)
        ? body.payouts.map((p) => Number((p as { id?: unknown }).id))
        : [];
      const started = ids.map((id) => this.payouts.get(id)).filter((p) => p !== undefined);
      if (!started.length) return { status: 404, json: { message: 'Paiement introuvable' } };
      for (const payout of started) {
        if (payout.status === 'pending') {
          payout.status = payout.amount % 10 === FAILING_PAYOUT_DIGIT ? 'failed' : 'sent';
          payout.at = new Date().toISOString();
        }
      }
      return { status: 200, json: { 'v1/payouts': started.map(describePayout) } };
    }
    const payoutPath = /^\/v1\/payouts\/(\d+)$/.exec(path);
    if (method === 'GET' && payoutPath) {
      const payout = this.payouts.get(Number(payoutPath[1]));
      if (!payout) return { status: 404, json: { message: 'Paiement introuvable' } };
      return { status: 200, json: { 'v1/payout': describePayout(payout) } };
    }
    return { status: 404, json: { message: 'Not found' } };
  }
}

function describeTransaction(found: StubTransaction) {
  return {
    id: found.id,
    status: found.status,
    amount: found.amount,
    custom_metadata: { reference: found.reference },
    created_at: found.at,
    ...(found.status === 'approved' ? { approved_at: found.at } : { declined_at: found.at }),
  };
}

/** A list as FedaPay pages it: `page` and `per_page`, `meta.next_page` null on the last. */
function paged(key: string, items: unknown[], query: URLSearchParams) {
  const perPage = Math.max(1, Number(query.get('per_page') ?? 25));
  const page = Math.max(1, Number(query.get('page') ?? 1));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return {
    [key]: slice,
    meta: { current_page: page, next_page: page * perPage < items.length ? page + 1 : null },
  };
}

/** How many approved (paid) transactions the provider holds for each supply reference. */
export function paidSupplies(stub: ProviderStub): Map<string, number> {
  const paid = new Map<string, number>();
  for (const t of stub.transactions.values()) {
    if (t.status === 'approved') paid.set(t.reference, (paid.get(t.reference) ?? 0) + 1);
  }
  return paid;
}

function describePayout(payout: StubPayout) {
  return {
    id: payout.id,
    status: payout.status,
    amount: payout.amount,
    merchant_reference: payout.reference,
    ...(payout.at ? { sent_at: payout.at } : {}),
    ...(payout.status === 'failed' ? { last_error_message: 'Solde du bénéficiaire bloqué' } : {}),
  };
}

/** How many payouts the provider sent for each withdrawal (merchant reference). */
export function sentPayouts(stub: ProviderStub): Map<string, number> {
  const sent = new Map<string, number>();
  for (const payout of stub.payouts.values()) {
    if (payout.status === 'sent') sent.set(payout.reference, (sent.get(payout.reference) ?? 0) + 1);
  }
  return sent;
}

function send(res: ServerResponse, status: number, json: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(json));
}
