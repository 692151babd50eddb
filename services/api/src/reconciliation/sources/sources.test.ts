import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProviderServer } from '../../wallet/providers/fake-provider-server.js';
import { parseBankCsv } from './bank-csv.js';
import { parseCamt053 } from './camt053.js';
import { fetchFedapayDay } from './fedapay.js';

describe('FedaPay statement through its API (local stand-in)', () => {
  const server = new FakeProviderServer();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterAll(() => server.stop());

  it('reads every page of approved transactions and sent payouts of the day', async () => {
    server.answer = (request) => {
      const url = new URL(request.url, 'http://x');
      const page = Number(url.searchParams.get('page'));
      if (url.pathname === '/v1/transactions/search') {
        const items =
          page === 1
            ? [
                {
                  id: 11,
                  status: 'approved',
                  amount: 5000,
                  approved_at: '2026-12-01T09:00:00Z',
                  custom_metadata: { reference: 'APP-1' },
                },
                { id: 12, status: 'declined', amount: 7000, created_at: '2026-12-01T09:00:00Z' },
              ]
            : [
                {
                  id: 13,
                  status: 'transferred',
                  amount: 8000,
                  approved_at: '2026-12-01T22:30:00Z',
                  merchant_reference: 'APP-3',
                },
                { id: 14, status: 'approved', amount: 9000, approved_at: '2026-11-30T10:00:00Z' },
              ];
        return {
          json: { 'v1/transactions': items, meta: { next_page: page === 1 ? 2 : null } },
        };
      }
      if (url.pathname === '/v1/payouts/search') {
        return {
          json: {
            'v1/payouts': [
              {
                id: 11,
                status: 'sent',
                amount: 3000,
                sent_at: '2026-12-01T12:00:00Z',
                merchant_reference: 'w-1',
              },
              { id: 15, status: 'failed', amount: 3000, sent_at: '2026-12-01T12:00:00Z' },
            ],
            meta: { next_page: null },
          },
        };
      }
      return { status: 404, json: {} };
    };
    const lines = await fetchFedapayDay({ baseUrl, secretKey: 'sk_test' }, '2026-12-01');
    expect(lines).toEqual([
      {
        source: 'FEDAPAY',
        providerReference: '11',
        reference: 'APP-1',
        direction: 'IN',
        amount: 5000,
        account: null,
        occurredAt: '2026-12-01T09:00:00.000Z',
      },
      expect.objectContaining({ providerReference: '13', reference: 'APP-3', amount: 8000 }),
      expect.objectContaining({
        providerReference: 'payout-11',
        reference: 'w-1',
        direction: 'OUT',
        amount: 3000,
      }),
    ]);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk_test');
  });

  it('says FedaPay does not answer on an error, recording nothing', async () => {
    server.answer = () => ({ status: 503, json: { message: 'down' } });
    await expect(fetchFedapayDay({ baseUrl, secretKey: 'k' }, '2026-12-01')).rejects.toThrow(
      'FedaPay ne répond pas : réessayez plus tard',
    );
  });
});

describe('bank files', () => {
  it('reads a CSV with the bank’s column mapping', () => {
    const csv = [
      'Date opération;Montant;Sens;Réf. banque;Libellé',
      '01/12/2026 10:15;250 000;C;E-1;VIR M. DOSSOU APP-7K2M9Q',
      '01/12/2026;-12 500;D;E-2;FRAIS',
    ].join('\n');
    expect(
      parseBankCsv(csv, {
        delimiter: ';',
        date: 'Date opération',
        dateFormat: 'DD/MM/YYYY',
        amount: 'Montant',
        direction: 'Sens',
        reference: 'Réf. banque',
        label: 'Libellé',
      }),
    ).toEqual([
      {
        source: 'BANK',
        providerReference: 'E-1',
        reference: 'APP-7K2M9Q',
        direction: 'IN',
        amount: 250_000,
        account: null,
        occurredAt: '2026-12-01T09:15:00.000Z',
      },
      {
        source: 'BANK',
        providerReference: 'E-2',
        reference: null,
        direction: 'OUT',
        amount: 12_500,
        account: null,
        occurredAt: '2026-12-01T11:00:00.000Z',
      },
    ]);
  });

  it('refuses a CSV row it cannot read, naming the row', () => {
    expect(() =>
      parseBankCsv('d,m,r,l\n2026-12-01,abc,E-1,x', {
        delimiter: ',',
        date: 'd',
        dateFormat: 'ISO',
        amount: 'm',
        reference: 'r',
        label: 'l',
      }),
    ).toThrow('Ligne 2 du relevé : montant illisible');
  });

  it('refuses a CAMT.053 statement in another currency', () => {
    const xml = `<Document><BkToCstmrStmt><Stmt><Ntry><NtryRef>E</NtryRef><Amt Ccy="EUR">10</Amt>
      <CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-12-01</Dt></BookgDt></Ntry></Stmt></BkToCstmrStmt></Document>`;
    expect(() => parseCamt053(xml)).toThrow('Seuls les relevés en F CFA (XOF) sont acceptés');
  });
});
