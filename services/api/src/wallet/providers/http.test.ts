import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestJson, type HttpOptions } from './http.js';
import { ProviderUnavailableError } from './port.js';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './test-tls.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A provider on a free port: `handle` answers; connections and requests are counted. */
class Provider {
  handle: Handler = (_req, res) => json(res, 200, {});
  connections = 0;
  readonly requests: {
    method: string;
    url: string;
    headers: IncomingMessage['headers'];
    body: string;
  }[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;

  async start(server: Server = createServer()): Promise<string> {
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
        });
        this.handle(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const get = { method: 'GET', headers: { authorization: 'Bearer sk_test' } };
const fast: HttpOptions = { timeoutMs: 200 };

/** The detail of the ProviderUnavailableError `call` must fail with. */
async function detailOf(call: Promise<unknown>): Promise<string> {
  const error: unknown = await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderUnavailableError);
  const { provider, detail } = (error as ProviderUnavailableError).data;
  expect(provider).toBe('fedapay');
  return detail as string;
}

describe('requestJson over HTTP', () => {
  const provider = new Provider();
  let base: string;
  beforeAll(async () => {
    base = `http://${await provider.start()}`;
  });
  afterAll(() => provider.stop());
  afterEach(() => {
    provider.requests.length = 0;
  });

  it('sends JSON with the caller headers and reads the JSON answer', async () => {
    provider.handle = (_req, res) => json(res, 201, { 'v1/payout': { id: 7, status: 'pending' } });
    const answer = await requestJson(
      'fedapay',
      `${base}/v1/payouts?x=1`,
      { method: 'POST', headers: { authorization: 'Bearer sk_test' }, body: { amount: 3000 } },
      fast,
    );
    expect(answer).toEqual({ status: 201, body: { 'v1/payout': { id: 7, status: 'pending' } } });
    const [request] = provider.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v1/payouts?x=1',
      body: '{"amount":3000}',
    });
    expect(request!.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer sk_test',
    });
  });

  it('a GET carries no body', async () => {
    provider.handle = (_req, res) => json(res, 200, { ok: true });
    expect(await requestJson('fedapay', `${base}/v1/payouts/7`, get, fast)).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(provider.requests[0]).toMatchObject({ method: 'GET', body: '' });
    expect(provider.requests[0]!.headers['content-length']).toBeUndefined();
  });

  it('a 4xx is returned with its body, for the adapter to interpret', async () => {
    provider.handle = (_req, res) => json(res, 404, { message: 'Paiement introuvable' });
    expect(await requestJson('fedapay', `${base}/v1/payouts/8`, get, fast)).toEqual({
      status: 404,
      body: { message: 'Paiement introuvable' },
    });
  });

  it('follows redirects as fetch did: a 307 keeps the POST and its body, a 302 turns it into a GET', async () => {
    provider.handle = (req, res) => {
      if (req.url === '/old') res.writeHead(307, { location: '/new' }).end();
      else if (req.url === '/moved') res.writeHead(302, { location: '/new' }).end();
      else json(res, 200, { at: req.url, method: req.method });
    };
    const post = { method: 'POST', headers: {}, body: { amount: 1 } };
    expect(await requestJson('fedapay', `${base}/old`, post, fast)).toEqual({
      status: 200,
      body: { at: '/new', method: 'POST' },
    });
    expect(provider.requests[1]).toMatchObject({ url: '/new', body: '{"amount":1}' });
    expect(await requestJson('fedapay', `${base}/moved`, post, fast)).toEqual({
      status: 200,
      body: { at: '/new', method: 'GET' },
    });
  });

  it('a 5xx is unavailable, whatever its body', async () => {
    provider.handle = (_req, res) => json(res, 503, { message: 'upstream' });
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toBe('HTTP 503');
  });

  it('an empty body is null', async () => {
    provider.handle = (_req, res) => res.writeHead(200).end();
    expect(await requestJson('fedapay', `${base}/x`, get, fast)).toEqual({
      status: 200,
      body: null,
    });
    provider.handle = (_req, res) => res.writeHead(204).end();
    expect(await requestJson('fedapay', `${base}/x`, get, fast)).toEqual({
      status: 204,
      body: null,
    });
    provider.handle = (_req, res) => res.writeHead(202).end(' \n');
    expect(await requestJson('fedapay', `${base}/x`, get, fast)).toEqual({
      status: 202,
      body: null,
    });
  });

  it('a body that is not JSON is unavailable', async () => {
    provider.handle = (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toBe(
      'malformed JSON (HTTP 200)',
    );
  });

  it('a provider that never answers times out', async () => {
    provider.handle = () => {};
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toBe('timeout');
  });

  it('a provider that sends its headers, then stalls its body, times out too', async () => {
    let closed: Promise<unknown> | undefined;
    provider.handle = (_req, res) => {
      closed = new Promise((resolve) => res.on('close', resolve));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' });
      res.write('{"v1/payout":');
    };
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toBe('timeout');
    // The half-read answer's connection is closed, not left in the pool.
    await closed;
  });

  it('a body trickling in past the limit times out: the limit is over the whole call', async () => {
    provider.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' });
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    };
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toBe('timeout');
  });

  it('a connection closed mid-answer is a network error', async () => {
    provider.handle = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' });
      res.write('{"v1/payout":', () => req.socket.destroy());
    };
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toMatch(/^network: /);
  });

  it('a connection closed before any answer is a network error', async () => {
    provider.handle = (req) => req.socket.destroy();
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toMatch(/^network: /);
  });

  it('a refused connection is a network error', async () => {
    const closed = new Provider();
    const address = await closed.start();
    await closed.stop();
    expect(await detailOf(requestJson('fedapay', `http://${address}/x`, get, fast))).toMatch(
      /^network: /,
    );
  });

  it('calls one after the other share one kept-alive connection', async () => {
    provider.handle = (_req, res) => json(res, 200, { ok: true });
    const before = provider.connections;
    for (let i = 0; i < 20; i++) {
      expect((await requestJson('fedapay', `${base}/v1/payouts/${i}`, get, fast)).status).toBe(200);
    }
    // Every answer above was read to its end, so its connection went back to the pool. Two,
    // not one: undici frees a connection on the next turn of the event loop, and a call made
    // at once takes a second one; from then on the two take turns (fetch did the same).
    expect(provider.connections - before).toBeLessThanOrEqual(2);
  });

  it('answers not read by anyone (errors) do not hold a connection: the next call still gets one', async () => {
    provider.handle = (_req, res) => json(res, 500, { message: 'x'.repeat(100_000) });
    for (let i = 0; i < 5; i++) {
      expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toBe('HTTP 500');
    }
    provider.handle = (_req, res) => json(res, 200, { ok: true });
    expect((await requestJson('fedapay', `${base}/x`, get, fast)).body).toEqual({ ok: true });
  });
});

describe('requestJson over HTTPS', () => {
  const provider = new Provider();
  let ca: string;
  let base: string;
  beforeAll(async () => {
    ca = TEST_TLS_CERT;
    base = `https://${await provider.start(createTlsServer({ key: TEST_TLS_KEY, cert: ca }))}`;
    provider.handle = (_req, res) => json(res, 200, { secure: true });
  });
  afterAll(async () => {
    await provider.stop();
  });

  it('answers over TLS from a provider whose certificate is trusted', async () => {
    const dispatcher = new Agent({ connect: { ca } });
    try {
      expect(await requestJson('fedapay', `${base}/x`, get, { ...fast, dispatcher })).toEqual({
        status: 200,
        body: { secure: true },
      });
    } finally {
      await dispatcher.close();
    }
  });

  it('refuses a certificate no authority vouches for (network error, nothing read)', async () => {
    const before = provider.requests.length;
    expect(await detailOf(requestJson('fedapay', `${base}/x`, get, fast))).toMatch(/^network: /);
    expect(provider.requests.length).toBe(before);
  });
});
