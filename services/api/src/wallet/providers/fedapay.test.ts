import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeProviderServer } from './fake-provider-server.js';
import { beninPhone, createFedapayProvider } from './fedapay.js';
import { ProviderUnavailableError, type PaymentProvider } from './port.js';

const server = new FakeProviderServer();
let provider: PaymentProvider;

beforeAll(async () => {
  const baseUrl = await server.start();
  provider = createFedapayProvider({
    baseUrl,
    publicKey: 'pk_sandbox',
    secretKey: 'sk_sandbox',
    timeoutMs: 300,
  });
});
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

/** An answer shaped like FedaPay's GET /v1/transactions/{id}. */
const fedapayTransaction = (overrides: Record<string, unknown> = {}) => ({
  'v1/transaction': {
    klass: 'v1/transaction',
    id: 4242,
    reference: 'trx_abc',
    amount: 5000,
    description: 'Approvisionnement REF-1',
    status: 'approved',
    merchant_reference: 'REF-1',
    custom_metadata: { reference: 'REF-1' },
    ...overrides,
  },
});

describe('FedaPay adapter', () => {
  it('verifies with GET /v1/transactions/{id} and the bearer secret', async () => {
    server.answer = () => ({ json: fedapayTransaction() });
    expect(await provider.verify('4242')).toEqual({
      status: 'SUCCESS',
      amount: 5000,
      reference: 'REF-1',
      transactionId: '4242',
    });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/transactions/4242' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk_sandbox');
  });

  it('maps declined/canceled to FAILED and pending to PENDING; reads custom_metadata when no merchant_reference', async () => {
    for (const [status, expected] of [
      ['declined', 'FAILED'],
      ['canceled', 'FAILED'],
      ['pending', 'PENDING'],
      ['transferred', 'SUCCESS'],
    ]) {
      server.answer = () => ({ json: fedapayTransaction({ status }) });
      expect((await provider.verify('4242')).status).toBe(expected);
    }
    server.answer = () => ({
      json: fedapayTransaction({ merchant_reference: null, amount: 4999 }),
    });
    expect(await provider.verify('4242')).toMatchObject({ reference: 'REF-1', amount: 4999 });
  });

  it('finds the transactions of a supply by its reference (search), keeping only those that carry it', async () => {
    const list = (items: Record<string, unknown>[]) => ({
      'v1/transactions': items.map((t) => fedapayTransaction(t)['v1/transaction']),
    });
    server.answer = () => ({
      json: list([
        { id: 1, status: 'declined', merchant_reference: null },
        { id: 2, status: 'approved', merchant_reference: null },
        // The search is a text search: another supply's reference may contain this one.
        { id: 3, merchant_reference: null, custom_metadata: { reference: 'REF-10' } },
      ]),
    });
    expect(await provider.paymentsFor!('REF-1')).toEqual([
      { status: 'FAILED', amount: 5000, reference: 'REF-1', transactionId: '1' },
      { status: 'SUCCESS', amount: 5000, reference: 'REF-1', transactionId: '2' },
    ]);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      url: '/v1/transactions/search?q=REF-1&per_page=100',
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk_sandbox');
    server.answer = () => ({ json: [] });
    expect(await provider.paymentsFor!('REF-2')).toEqual([]);
    server.answer = () => ({ status: 500, raw: 'down' });
    await expect(provider.paymentsFor!('REF-1')).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('an unknown transaction (404) is FAILED', async () => {
    server.answer = () => ({ status: 404, json: { message: 'Transaction not found' } });
    expect((await provider.verify('1')).status).toBe('FAILED');
  });

  it('500, timeout and malformed JSON are ProviderUnavailableError', async () => {
    server.answer = () => ({ status: 503, raw: 'upstream' });
    await expect(provider.verify('1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    server.answer = () => 'hang';
    await expect(provider.verify('1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    server.answer = () => ({ raw: '<html>' });
    await expect(provider.verify('1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    server.answer = () => ({ json: { unexpected: true } });
    await expect(provider.verify('1')).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('pays out to mobile money: creates the payout with the operator mode, then starts it', async () => {
    server.answer = (request) =>
      request.method === 'POST'
        ? { json: { 'v1/payout': { id: 77, status: 'pending', amount: 3000 } } }
        : { json: { 'v1/payouts': [{ id: 77, status: 'sent' }] } };
    expect(
      await provider.payout({
        reference: 'W1',
        amount: 3000,
        method: 'MOBILE_MONEY',
        destination: '+2290196000000',
      }),
    ).toEqual({
      status: 'SUCCESS',
      providerId: '77',
    });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /v1/payouts',
      'PUT /v1/payouts/start',
    ]);
    expect(server.requests[0]!.body).toMatchObject({
      amount: 3000,
      currency: { iso: 'XOF' },
      mode: 'mtn_open',
      merchant_reference: 'W1',
      customer: { phone_number: { number: '+2290196000000', country: 'bj' } },
    });
    expect(server.requests[1]!.body).toEqual({ payouts: [{ id: 77 }] });
  });

  it('a refused payout is FAILED with the provider message; a started one may stay PENDING; bank is not offered', async () => {
    server.answer = () => ({ status: 400, json: { message: 'Solde insuffisant' } });
    expect(
      await provider.payout({
        reference: 'W',
        amount: 1,
        method: 'MOBILE_MONEY',
        destination: '97000001',
      }),
    ).toEqual({
      status: 'FAILED',
      reason: 'Solde insuffisant',
    });
    server.answer = (request) =>
      request.method === 'POST'
        ? { json: { 'v1/payout': { id: 8, status: 'pending' } } }
        : { json: { 'v1/payouts': [{ id: 8, status: 'started' }] } };
    expect(
      (
        await provider.payout({
          reference: 'W',
          amount: 1,
          method: 'MOBILE_MONEY',
          destination: '97000001',
        })
      ).status,
    ).toBe('PENDING');
    expect(
      (await provider.payout({ reference: 'W', amount: 1, method: 'BANK', destination: 'BJ01' }))
        .status,
    ).toBe('FAILED');
    server.answer = () => ({ status: 500, json: {} });
    await expect(
      provider.payout({
        reference: 'W',
        amount: 1,
        method: 'MOBILE_MONEY',
        destination: '97000001',
      }),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('reads Benin numbers in 8 or 10 digits and picks the operator', () => {
    expect(beninPhone('97 00 00 01')).toEqual({ e164: '+2290197000001', operator: 'MTN' });
    expect(beninPhone('+229 01 95 00 00 01')).toEqual({ e164: '+2290195000001', operator: 'MOOV' });
    expect(beninPhone('12')).toBeNull();
  });

  const momo = {
    reference: 'W9',
    amount: 2500,
    method: 'MOBILE_MONEY',
    destination: '+2290196000001',
  } as const;

  it('tells the caller the payout id before starting it; a failure to store it starts nothing', async () => {
    server.answer = (request) =>
      request.method === 'POST'
        ? { json: { 'v1/payout': { id: 91, status: 'pending' } } }
        : { json: { 'v1/payouts': [{ id: 91, status: 'started' }] } };
    const seen: string[] = [];
    const result = await provider.payout(momo, {
      created: async (id) => {
        seen.push(`${id} after ${server.requests.length} request(s)`);
      },
    });
    expect(seen).toEqual(['91 after 1 request(s)']);
    expect(result).toEqual({ status: 'PENDING', providerId: '91' });
    server.requests.length = 0;
    await expect(
      provider.payout(momo, {
        created: async () => {
          throw new Error('database down');
        },
      }),
    ).rejects.toThrow('database down');
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('checkPayout reads GET /v1/payouts/{id}: sent, failed (with its message), still started', async () => {
    for (const [status, expected] of [
      ['sent', { status: 'SUCCESS', providerId: '91' }],
      ['started', { status: 'PENDING', providerId: '91' }],
      ['scheduled', { status: 'PENDING', providerId: '91' }],
      ['failed', { status: 'FAILED', providerId: '91', reason: 'Numéro non abonné' }],
    ] as const) {
      server.answer = () => ({
        json: { 'v1/payout': { id: 91, status, last_error_message: 'Numéro non abonné' } },
      });
      expect(await provider.checkPayout('91', momo)).toEqual(expected);
    }
    expect(server.requests.every((r) => r.method === 'GET' && r.url === '/v1/payouts/91')).toBe(
      true,
    );
  });

  it('checkPayout starts a payout FedaPay never started, and only that one', async () => {
    let started = false;
    server.answer = (request) => {
      if (request.method === 'PUT') {
        started = true;
        return { json: { 'v1/payouts': [{ id: 91, status: 'sent' }] } };
      }
      return { json: { 'v1/payout': { id: 91, status: started ? 'sent' : 'pending' } } };
    };
    expect(await provider.checkPayout('91', momo)).toEqual({ status: 'SUCCESS', providerId: '91' });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/payouts/91',
      'PUT /v1/payouts/start',
    ]);
  });

  it('a refused start is believed only if the payout did not start (an earlier start won)', async () => {
    server.answer = (request) =>
      request.method === 'PUT'
        ? { status: 400, json: { message: 'Déjà lancé' } }
        : { json: { 'v1/payout': { id: 91, status: 'started' } } };
    expect(await provider.checkPayout('91', momo)).toEqual({ status: 'PENDING', providerId: '91' });
    let reads = 0;
    server.answer = (request) =>
      request.method === 'PUT'
        ? { status: 422, json: { message: 'Solde insuffisant' } }
        : { json: { 'v1/payout': { id: 91, status: reads++ < 5 ? 'pending' : 'sent' } } };
    expect(await provider.checkPayout('91', momo)).toEqual({
      status: 'FAILED',
      providerId: '91',
      reason: 'Solde insuffisant',
    });
  });

  it('refused credentials and rate limits are retried (unavailable), not failed', async () => {
    for (const status of [401, 403, 429]) {
      server.answer = () => ({ status, json: { message: 'nope' } });
      await expect(provider.payout(momo)).rejects.toBeInstanceOf(ProviderUnavailableError);
      await expect(provider.checkPayout('91', momo)).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
    }
    server.answer = () => 'hang';
    await expect(provider.checkPayout('91', momo)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});
