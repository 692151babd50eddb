import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findOffline, settleOffline, type OfflineDay } from './offline-day.js';

/** The server's phone check (contracts/collection/service.ts `phoneCheckOf`). */
const serverCheck = (growerId: string, last8: string) =>
  createHash('sha256').update(`${growerId}:${last8}`).digest('base64');

const day: OfflineDay = {
  issuedAt: '2026-12-07T07:00:00.000Z',
  aggregatorUserId: 'agg',
  available: 0,
  growers: [
    {
      id: 'g1',
      reference: 'PRD-000123',
      firstname: 'Awa',
      lastname: 'Dossou',
      phoneChecks: [serverCheck('g1', '97123456')],
      hasMobileMoney: true,
      contracts: [
        { id: 'c1', reference: 'LIV-1', quantityKg: 2000, amount: 300_000, deliveryDate: '' },
        { id: 'c2', reference: 'LIV-2', quantityKg: 1000, amount: 100_000, deliveryDate: '' },
      ],
      debts: [
        {
          id: 'd1',
          kind: 'AVANCE_SUR_ANANAS',
          creditorUserId: 'agg',
          outstanding: 50_000,
          openedAt: '2026-10-01T00:00:00.000Z',
        },
      ],
    },
    {
      id: 'g2',
      reference: 'PRD-000045',
      firstname: 'Koffi',
      lastname: 'Agbo',
      phoneChecks: [],
      hasMobileMoney: false,
      contracts: [],
      debts: [],
    },
  ],
};

describe('the collection centre offline: finding a grower in the kept day', () => {
  it('finds him by his code, its digits with or without zeros, or his phone; never a stranger', async () => {
    for (const text of [
      'PRD-000123',
      'prd-123',
      '123',
      '000123',
      '97 12 34 56',
      '+229 01 97123456',
    ]) {
      const found = await findOffline(day, text, new Set());
      expect(
        found.map((g) => g.id),
        text,
      ).toEqual(['g1']);
    }
    expect(await findOffline(day, 'PRD-999999', new Set())).toEqual([]);
    expect(await findOffline(day, '97123457', new Set())).toEqual([]);
    expect(await findOffline(null, 'PRD-000123', new Set())).toEqual([]);
  });

  it('offers his kept contracts, not those this phone queued or saw refused', async () => {
    const [grower] = await findOffline(day, '123', new Set(['c1']));
    expect(grower!.contracts.map((c) => c.id)).toEqual(['c2']);
    expect(grower!.contracts[0]).toMatchObject({ quantity: '1', amount: 100_000 });
    expect(grower!.phone).toBeNull();
  });
});

describe('the collection centre offline: the figures computed on the phone', () => {
  const weighing = (contractId: string, kilograms: number) => ({
    contractId,
    kilograms,
    grade: 'A' as const,
    weighedOn: '2026-12-07',
  });

  it('computes worth, recoveries and net by the settlement rule', () => {
    const answer = settleOffline(day, [], weighing('c1', 1000))!;
    expect(answer).toMatchObject({
      deliveredAmount: 150_000,
      recoveredAmount: 50_000,
      growerNet: 100_000,
      recoveries: [{ debtId: 'd1', amount: 50_000, to: 'AGGREGATOR' }],
    });
  });

  it('settles the weighings already queued first: a debt they recover is not recovered twice', () => {
    const answer = settleOffline(day, [weighing('c1', 200)], weighing('c2', 1000))!;
    // c1's 200 kg are worth 30,000, all recovered; 20,000 of the debt are left for c2.
    expect(answer.recoveries).toEqual([
      { debtId: 'd1', kind: 'AVANCE_SUR_ANANAS', amount: 20_000, to: 'AGGREGATOR' },
    ]);
    expect(answer.growerNet).toBe(80_000);
  });

  it('has no figures for a contract the day does not keep', () => {
    expect(settleOffline(day, [], weighing('c9', 100))).toBeNull();
  });
});
