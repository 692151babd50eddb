import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeProviderServer } from './fake-provider-server.js';
import { createKkiapayProvider } from './kkiapay.js';
import { ProviderUnavailableError, type PaymentProvider } from './port.js';

const server = new FakeProviderServer();
let provider: PaymentProvider;

beforeAll(async () => {
  const baseUrl = await server.start();
  provider = createKkiapayProvider({
    baseUrl,
    publicKey: 'pub',
    privateKey: 'priv',
    secretKey: 'sec',
    timeoutMs: 300,
  });
});
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

/** An answer shaped like KKiaPay's transaction status. */
const kkiapayAnswer = (overrides: Record<string, unknown> = {}) => ({
  performed_at: '2026-11-21T10:00:00.000Z',
  type: 'DEBIT',
  status: 'SUCCESS',
  source: 'MOBILE_MONEY',
  amount: 5000,
  fees: 95,
  reason: null,
  failureCode: null,
  failureMessage: null,
  state: 'REF-1',
  partnerId: 'REF-1',
  transactionId: 'kk-123',
  ...overrides,
});

describe('KKiaPay adapter', () => {
  it('verifies with POST /api/v1/transactions/status, the key headers and {transactionId}', async () => {
    server.answer = () => ({ json: kkiapayAnswer() });
    expect(await provider.verify('kk-123')).toEqual({
      status: 'SUCCESS',
      amount: 5000,
      reference: 'REF-1',
      transactionId: 'kk-123',
    });
    const [request] = server.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/api/v1/transactions/status',
      body: { transactionId: 'kk-123' },
    });
    expect(request!.headers).toMatchObject({
      'x-api-key': 'pub',
      'x-private-key': 'priv',
      'x-secret-key': 'sec',
    });
  });

  it('maps failure and pending statuses', async () => {
    server.answer = () => ({ json: kkiapayAnswer({ status: 'FAILED', failureCode: 'x' }) });
    expect((await provider.verify('kk-1')).status).toBe('FAILED');
    server.answer = () => ({ json: kkiapayAnswer({ status: 'INSUFFICIENT_FUND' }) });
    expect((await provider.verify('kk-1')).status).toBe('FAILED');
    server.answer = () => ({ json: kkiapayAnswer({ status: 'PENDING' }) });
    expect((await provider.verify('kk-1')).status).toBe('PENDING');
  });

  it('reports the amount and reference as the provider gives them (the decider compares)', async () => {
    server.answer = () => ({
      json: kkiapayAnswer({ amount: 4000, partnerId: null, state: 'OTHER' }),
    });
    expect(await provider.verify('kk-1')).toMatchObject({
      status: 'SUCCESS',
      amount: 4000,
      reference: 'OTHER',
    });
  });

  it('an unknown transaction (404) is FAILED', async () => {
    server.answer = () => ({ status: 404, json: { message: 'not found' } });
    expect(await provider.verify('nope')).toEqual({
      status: 'FAILED',
      amount: 0,
      reference: '',
      transactionId: 'nope',
    });
  });

  it('500, timeout and malformed JSON are ProviderUnavailableError, never SUCCESS', async () => {
    server.answer = () => ({ status: 500, json: { status: 'SUCCESS' } });
    await expect(provider.verify('kk-1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    server.answer = () => 'hang';
    await expect(provider.verify('kk-1')).rejects.toMatchObject({
      statusCode: 503,
      data: { detail: 'timeout' },
    });
    server.answer = () => ({ raw: '{"status":"SUCC' });
    await expect(provider.verify('kk-1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    server.answer = () => ({ json: kkiapayAnswer({ amount: 'beaucoup' }) });
    await expect(provider.verify('kk-1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    server.answer = () => ({ status: 401, json: { message: 'bad keys' } });
    await expect(provider.verify('kk-1')).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('gives the widget the public key, amount and reference; payouts are not offered', async () => {
    expect(provider.widgetConfig({ reference: 'REF-1', amount: 5000 })).toMatchObject({
      provider: 'kkiapay',
      key: 'pub',
      amount: 5000,
      data: 'REF-1',
    });
    expect(
      await provider.payout({
        reference: 'W',
        amount: 1,
        method: 'MOBILE_MONEY',
        destination: '+2290197000000',
      }),
    ).toMatchObject({
      status: 'FAILED',
    });
    expect(
      await provider.checkPayout('x', {
        reference: 'W',
        amount: 1,
        method: 'MOBILE_MONEY',
        destination: '+2290197000000',
      }),
    ).toMatchObject({ status: 'FAILED' });
    expect(server.requests).toEqual([]);
  });
});
