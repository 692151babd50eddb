import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProviderServer } from '../../wallet/providers/fake-provider-server.js';
import { parseBankCsv } from './bank-csv.js';
import { parseCamt053 } from './camt053.js';
import { detectStatementFormat } from './detect.js';
import { parseMt940 } from './mt940.js';
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

/**
 * An MT940 file as a Benin bank's e-banking exports it: two statements of the supply account
 * (SWIFT blocks, XOF, amounts with the decimal comma and no decimals, :86: narratives over
 * several lines).
 */
const beninMt940 = [
  '{1:F01ECOCBJBJAXXX0000000000}{2:O9400600261207ECOCBJBJAXXX00000000002612070600N}{4:',
  ':20:STMT2612060001',
  ':25:ECOCBJBJ/0010123456789',
  ':28C:00241/001',
  ':60F:C261205XOF1250000,',
  ':61:2612061206C250000,NTRFAPP-7K2M9Q//ECO2612060001',
  ':86:VIREMENT RECU DE DOSSOU KOFFI',
  'DONNEUR BJ06 6101 0010 0123 4567 8901 2345',
  ':61:2612061206D12500,NCHGNONREF//ECO2612060002',
  ':86:FRAIS DE TENUE DE COMPTE',
  ':62F:C261206XOF1487500,',
  '-}',
  '{1:F01ECOCBJBJAXXX0000000000}{2:O9400600261208ECOCBJBJAXXX00000000002612080600N}{4:',
  ':20:STMT2612070001',
  ':25:ECOCBJBJ/0010123456789',
  ':28C:00242/001',
  ':60F:C261206XOF1487500,',
  ':61:2612071207C60000,NTRFNONREF',
  ':86:VERSEMENT ESPECES AGENCE COTONOU',
  'REF CLIENT APP-4XR2PL COOP ALLADA',
  ':61:2612071207RC5000,NTRFNONREF//ECO2612070002',
  ':86:ANNULATION VIREMENT DU 05/12',
  ':61:2612071208D30000,NTRF0f3c9a21//ECO2612070003',
  ':86:VIREMENT EMIS ORDRE FILIERE',
  ':62F:C261208XOF1512500,',
  '-}',
].join('\r\n');

describe('MT940 bank statements', () => {
  it('reads every line of every statement in the file', () => {
    expect(parseMt940(beninMt940)).toEqual([
      {
        source: 'BANK',
        providerReference: 'ECO2612060001',
        reference: 'APP-7K2M9Q',
        direction: 'IN',
        amount: 250_000,
        account: 'BJ0661010010012345678901' + '2345',
        occurredAt: '2026-12-06T11:00:00.000Z',
      },
      {
        source: 'BANK',
        providerReference: 'ECO2612060002',
        reference: null,
        direction: 'OUT',
        amount: 12_500,
        account: null,
        occurredAt: '2026-12-06T11:00:00.000Z',
      },
      {
        // No bank reference, customer reference NONREF: the account, statement and place.
        source: 'BANK',
        providerReference: 'ECOCBJBJ/0010123456789/00242/001/1',
        reference: 'APP-4XR2PL',
        direction: 'IN',
        amount: 60_000,
        account: null,
        occurredAt: '2026-12-07T11:00:00.000Z',
      },
      {
        // The reversal of a credit takes the money back out.
        source: 'BANK',
        providerReference: 'ECO2612070002',
        reference: null,
        direction: 'OUT',
        amount: 5_000,
        account: null,
        occurredAt: '2026-12-07T11:00:00.000Z',
      },
      {
        // Booked the day after its value date: dated by its entry date.
        source: 'BANK',
        providerReference: 'ECO2612070003',
        reference: null,
        direction: 'OUT',
        amount: 30_000,
        account: null,
        occurredAt: '2026-12-08T11:00:00.000Z',
      },
    ]);
  });

  it('dates a line booked in January of a December value date in the next year', () => {
    const file = [
      ':20:STMT1',
      ':25:BJ066101001001234567890123',
      ':28C:1/1',
      ':60F:C261231XOF0,',
      ':61:2612310102C1000,NTRFNONREF//B1',
      ':86:VIREMENT APP-AB12',
      ':62F:C270102XOF1000,',
    ].join('\n');
    expect(parseMt940(file)).toEqual([
      expect.objectContaining({
        providerReference: 'B1',
        reference: 'APP-AB12',
        occurredAt: '2027-01-02T11:00:00.000Z',
      }),
    ]);
  });

  it('refuses a statement in another currency, with decimals, or that does not add up', () => {
    const statement = (currency: string, amount: string, closing: string) =>
      [
        ':20:S',
        ':25:ACC',
        ':28C:1',
        `:60F:C261206${currency}0,`,
        `:61:261206C${amount}NTRFNONREF//R1`,
        ':86:X',
        `:62F:C261206${currency}${closing}`,
      ].join('\n');
    expect(() => parseMt940(statement('EUR', '10,', '10,'))).toThrow(
      'Seuls les relevés en F CFA (XOF) sont acceptés',
    );
    expect(() => parseMt940(statement('XOF', '10,50', '10,50'))).toThrow(
      'Montant invalide dans le relevé',
    );
    expect(() => parseMt940(statement('XOF', '10,', '20,'))).toThrow(
      'Le relevé MT940 est incohérent : ses écritures ne donnent pas son solde de clôture',
    );
    expect(() => parseMt940('bonjour')).toThrow('Relevé MT940 illisible');
  });

  it('recognises a statement’s format by its content', () => {
    expect(detectStatementFormat(beninMt940)).toBe('MT940');
    expect(detectStatementFormat(':20:S\n:25:ACC\n:28C:1')).toBe('MT940');
    expect(detectStatementFormat('\uFEFF<?xml version="1.0"?><Document/>')).toBe('CAMT053');
    expect(detectStatementFormat('Date;Montant;Libellé\n01/12/2026;10;x')).toBe('CSV');
  });
});
