import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFedapayDay } from '@filiere/api/reconciliation';
import { ProviderStub } from './provider-stub.js';

const beninDay = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10);

describe('the bank test’s provider stub writes its own statement', () => {
  const stub = new ProviderStub();
  let url: string;
  beforeAll(async () => {
    url = await stub.start();
  });
  afterAll(() => stub.stop());

  it('lists the paid transactions and the sent payouts through FedaPay’s list API', async () => {
    const paid = stub.pay('APP-PAID', 5_000, true);
    stub.pay('APP-REFUSED', 6_000, false);
    const post = (path: string, method: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, any>>);
    const sent = await post('/v1/payouts', 'POST', { amount: 3_000, merchant_reference: 'w-1' });
    const failed = await post('/v1/payouts', 'POST', { amount: 3_007, merchant_reference: 'w-2' });
    await post('/v1/payouts/start', 'PUT', {
      payouts: [{ id: sent['v1/payout'].id }, { id: failed['v1/payout'].id }],
    });
    // More lines than a page: the statement is read page after page.
    for (let i = 0; i < 120; i++) stub.pay(`APP-${i}`, 100 + i, true);

    const lines = await fetchFedapayDay({ baseUrl: url, secretKey: 'sk' }, beninDay(Date.now()));
    expect(lines).toHaveLength(122);
    expect(lines).toContainEqual(
      expect.objectContaining({ providerReference: paid, reference: 'APP-PAID', direction: 'IN' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ reference: 'w-1', direction: 'OUT', amount: 3_000 }),
    );
    expect(lines.some((l) => l.reference === 'APP-REFUSED' || l.reference === 'w-2')).toBe(false);
  });
});
