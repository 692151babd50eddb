import {
  FakeProviderServer,
  type FakeAnswer,
  type RecordedRequest,
} from './fake-provider-server.js';

/** A payout as the stub keeps it (FedaPay's statuses). */
export interface StubPayout {
  id: number;
  amount: number;
  merchant_reference: string;
  phone: string;
  status: 'pending' | 'started' | 'sent' | 'failed';
  last_error_message: string | null;
  /** How many times a start reached it while it could still start (money moved once). */
  starts: number;
}

export type StubRoute = 'create' | 'start' | 'get';

/**
 * A fault on the next request to a route: `before` the stub acts (nothing happens) or
 * `after` (the payout is created or started, but the answer is lost): a hang (the
 * adapter times out) or a 500.
 */
export interface StubFault {
  route: StubRoute;
  when: 'before' | 'after';
  kind: 'hang' | 500;
}

/**
 * FedaPay's payout API as a stateful local server, for adapter and job tests:
 * `POST /v1/payouts` creates a `pending` payout, `PUT /v1/payouts/start` sends it (`started`,
 * or `sent`/`failed` at once per `onStart`; a payout not `pending` answers 400 as already
 * started), `GET /v1/payouts/{id}` reads it. Faults are consumed in order.
 */
export class FedapayStub {
  readonly server = new FakeProviderServer();
  readonly payouts = new Map<number, StubPayout>();
  faults: StubFault[] = [];
  /** What a start does to the payout. */
  onStart: 'started' | 'sent' | 'failed' = 'started';
  /** Answer the create with this 4xx (e.g. 400 with a message) instead of creating. */
  refuseCreate: { status: number; message: string } | undefined;
  private nextId = 100;

  async start(): Promise<string> {
    this.server.answer = (request) => this.handle(request);
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The provider settles a started payout (as its operator would, later). */
  settle(id: number, status: 'sent' | 'failed', message?: string): void {
    const payout = this.payouts.get(id)!;
    payout.status = status;
    payout.last_error_message = message ?? null;
  }

  /** Payouts whose money left (started at least once): must never exceed one per reference. */
  moved(reference: string): StubPayout[] {
    return [...this.payouts.values()].filter(
      (p) => p.merchant_reference === reference && p.starts > 0,
    );
  }

  /** Every payout id created for a reference (started or not). */
  created(reference: string): StubPayout[] {
    return [...this.payouts.values()].filter((p) => p.merchant_reference === reference);
  }

  requests(route: StubRoute): RecordedRequest[] {
    return this.server.requests.filter((r) => routeOf(r) === route);
  }

  private handle(request: RecordedRequest): FakeAnswer {
    const route = routeOf(request);
    if (route === null) return { status: 404, json: { message: 'Not found' } };
    const index = this.faults.findIndex((f) => f.route === route);
    const fault = index >= 0 ? this.faults.splice(index, 1)[0] : undefined;
    const failure: FakeAnswer | undefined = fault
      ? fault.kind === 'hang'
        ? 'hang'
        : { status: 500, json: { message: 'Internal Server Error' } }
      : undefined;
    if (fault?.when === 'before') return failure!;
    const answer = this.act(route, request);
    return failure ?? answer;
  }

  private act(route: StubRoute, request: RecordedRequest): FakeAnswer {
    const body = (request.body ?? {}) as Record<string, any>;
    if (route === 'create') {
      if (this.refuseCreate) {
        return { status: this.refuseCreate.status, json: { message: this.refuseCreate.message } };
      }
      const payout: StubPayout = {
        id: this.nextId++,
        amount: Number(body.amount),
        merchant_reference: String(body.merchant_reference),
        phone: String(body.customer?.phone_number?.number),
        status: 'pending',
        last_error_message: null,
        starts: 0,
      };
      this.payouts.set(payout.id, payout);
      return { json: { 'v1/payout': view(payout) } };
    }
    if (route === 'start') {
      const ids: unknown[] = Array.isArray(body.payouts) ? body.payouts.map((p: any) => p.id) : [];
      const found = ids.map((id) => this.payouts.get(Number(id)));
      if (found.some((p) => p === undefined)) {
        return { status: 404, json: { message: 'Payout introuvable' } };
      }
      if (found.some((p) => p!.status !== 'pending')) {
        return { status: 400, json: { message: 'Le dépôt a déjà été lancé' } };
      }
      for (const payout of found) {
        payout!.starts++;
        payout!.status = this.onStart;
        if (this.onStart === 'failed') payout!.last_error_message = 'Numéro non abonné';
      }
      return { json: { 'v1/payouts': found.map((p) => view(p!)) } };
    }
    const id = Number(request.url.split('/').pop());
    const payout = this.payouts.get(id);
    if (!payout) return { status: 404, json: { message: 'Payout introuvable' } };
    return { json: { 'v1/payout': view(payout) } };
  }
}

function routeOf(request: RecordedRequest): StubRoute | null {
  if (request.method === 'POST' && request.url === '/v1/payouts') return 'create';
  if (request.method === 'PUT' && request.url === '/v1/payouts/start') return 'start';
  if (request.method === 'GET' && /^\/v1\/payouts\/\d+$/.test(request.url)) return 'get';
  return null;
}

function view(payout: StubPayout) {
  const { starts: _starts, phone: _phone, ...rest } = payout;
  return { klass: 'v1/payout', mode: 'mtn_open', ...rest };
}
