import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { EventStore } from '@filiere/event-store';
import { beninDay, narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, checkProjector, rebuildProjector } from '@filiere/projections';
import { advanceReference, advanceReferenceSql } from '../../kernel/references.js';
import { captureHold, placeHold, settleHold, transfer } from '../domain/index.js';
import { forEachExportPage, type ExportRow } from '../export/export-rows.js';
import { balanceHistoryProjector } from '../history/projector.js';
import { statementOf } from '../history/point-in-time.js';
import type { WalletHistoryTables } from '../history/tables.js';
import { projectWallet, RecordingLedger, walletCatalogue, walletDecoder } from './test-support.js';
import { transactionsProjector } from './transactions.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

const ASSIGNMENT = 'input-assignment-1';
const CONTRACT = 'contract-4f0c2a8e-0a4e-4b8e-9a55-2f1f3c1b9e01';
const HUMAN = /^[A-Z]{2,4}-[A-Z0-9-]+$/;

/**
 * The aggregator's wallet showed 'input-assignment-1' for two different input deliveries,
 * 'request-8' for a pineapple advance and 'AVA-demo-advance-ananas-1' for the demo's, while the
 * advances' lists showed 'AVI-…'/'AVA-…' for the same movements. Every movement has one human
 * reference, the same in the list, the statement, the export and the advances' screens, and a
 * rebuild of the projections gives the same.
 */
describe('one human reference per movement', () => {
  const expected = {
    firstDelivery: advanceReference('AVANCE_SUR_INTRANT', 'input-advance-5'),
    secondDelivery: advanceReference('AVANCE_SUR_INTRANT', 'input-advance-6'),
    request: advanceReference('AVANCE_SUR_ANANAS', 'request-8'),
    social: advanceReference('FINANCEMENT_SOCIAL', 'request-9'),
    demo: advanceReference('AVANCE_SUR_ANANAS', 'demo-advance-ananas-1'),
  };

  beforeAll(async () => {
    const ledger = new RecordingLedger();
    const store = new EventStore(t.db, walletCatalogue);
    const aggregator = ledger.open('wa', 'ua');
    ledger.open('wg', 'ug', 'ROLE_GROWER');
    ledger.open('wp', 'up', 'ROLE_INPUT_PROVIDER');
    ledger.fund(aggregator, 100_000, 'APP-FUNDS00001');
    ledger.apply(
      placeHold(ledger.wallet('wa'), {
        holdId: ASSIGNMENT,
        amount: 20_000,
        purpose: 'Fournisseur d’intrant, saison 3 : 40 kg × 500 F CFA',
      }),
    );
    ledger.apply(
      placeHold(ledger.wallet('wa'), {
        holdId: CONTRACT,
        amount: 9_000,
        purpose: 'Contrat de livraison LIV-93F1C694',
      }),
    );
    await ledger.flush(store);
    await projectWallet(t.db);
    // Two deliveries paid from the same assignment's hold, in a later batch.
    for (const requestId of [5, 6]) {
      ledger.apply(
        settleHold(
          { wallet: ledger.wallet('wa'), destinations: { wp: ledger.wallet('wp') } },
          {
            holdId: ASSIGNMENT,
            settlementId: `delivery-${requestId}`,
            payments: [{ walletId: 'wp', amount: 5_000 }],
            closeHold: false,
            allowExcess: false,
          },
        ),
      );
    }
    const recipient = { userId: 'ug', role: 'ROLE_GROWER', clusterId: 'c1', status: 'ACTIVE' };
    for (const [reference, reason] of [
      ['request-8', 'Avance sur ananas DEM-000008'],
      ['request-9', 'Financement social DEM-000009'],
      ['AVA-demo-advance-ananas-1', 'Avance sur ananas'],
    ] as const) {
      ledger.apply(
        transfer(
          { source: ledger.wallet('wa'), destination: ledger.wallet('wg') },
          {
            reference,
            sourceWalletId: 'wa',
            destinationWalletId: 'wg',
            amount: 3_000,
            reason,
          },
          aggregator,
          { recipient: recipient as never },
        ),
      );
    }
    ledger.apply(
      captureHold(
        { wallet: ledger.wallet('wa'), destinations: { wg: ledger.wallet('wg') } },
        { holdId: CONTRACT, payments: [{ walletId: 'wg', amount: 9_000 }] },
      ),
    );
    await ledger.flush(store);
    await projectWallet(t.db);
    await catchUp(t.db, balanceHistoryProjector, { decode: walletDecoder });
  });

  const listed = () =>
    t.db
      .selectFrom('wallet_transactions')
      .select(['id', 'wallet_id', 'direction', 'reference'])
      .orderBy('id')
      .execute();

  it('two different payments never share a reference; both sides of one payment show the same', async () => {
    const rows = await listed();
    const out = rows.filter((r) => r.wallet_id === 'wa' && r.direction === 'OUT');
    expect(out.map((r) => r.reference)).toEqual([
      expected.firstDelivery,
      expected.secondDelivery,
      expected.request,
      expected.social,
      expected.demo,
      'LIV-93F1C694',
    ]);
    expect(new Set(out.map((r) => r.reference)).size).toBe(out.length);
    for (const r of rows) expect(r.reference).toMatch(HUMAN);
    const incoming = rows.filter((r) => r.direction === 'IN' && r.wallet_id !== 'wa');
    expect(incoming.map((r) => r.reference)).toEqual(out.map((r) => r.reference));
  });

  it('the statement and the export show the list’s references', async () => {
    const today = beninDay(new Date());
    const statement = await statementOf(
      narrowDb<WalletHistoryTables>()(t.db) as never,
      'wa',
      { from: '2026-01-01', to: today > '2026-01-01' ? today : '2026-01-01' },
      { page: 1, limit: 50 },
    );
    const shown = statement.movements.map((m) => [m.type, m.reference]);
    expect(shown).toEqual([
      ['WalletOpened', null],
      ['SupplyCredited', 'APP-FUNDS00001'],
      ['HoldPlaced', 'FI-000001'],
      ['HoldPlaced', 'LIV-93F1C694'],
      ['HoldSettled', 'FI-000001'],
      ['HoldSettlementPaid', expected.firstDelivery],
      ['HoldSettled', 'FI-000001'],
      ['HoldSettlementPaid', expected.secondDelivery],
      ['TransferSent', expected.request],
      ['TransferSent', expected.social],
      ['TransferSent', expected.demo],
      ['HoldCaptured', 'LIV-93F1C694'],
    ]);
    const exported: ExportRow[] = [];
    await forEachExportPage(t.db, 'wa', (rows) => void exported.push(...rows));
    const list = (await listed()).filter((r) => r.wallet_id === 'wa');
    expect(exported.map((r) => r.reference)).toEqual(list.map((r) => r.reference));
  });

  it('the advances’ screens compute the same reference in SQL', async () => {
    const { rows } = await sql<{
      reference: string;
    }>`select ${advanceReferenceSql('d.kind', 'd.id')} as reference
      from (values ('AVANCE_SUR_INTRANT', 'input-advance-5'), ('AVANCE_SUR_ANANAS', 'request-8'),
        ('FINANCEMENT_SOCIAL', 'request-9')) as d(kind, id)`.execute(t.db);
    expect(rows.map((r) => r.reference)).toEqual([
      expected.firstDelivery,
      expected.request,
      expected.social,
    ]);
  });

  it('a rebuild of the projections gives the same references (ledger:check, ledger:rebuild)', async () => {
    const before = await listed();
    expect(
      (await checkProjector(t.db, transactionsProjector, { decode: walletDecoder })).differences,
    ).toEqual([]);
    expect(
      (await checkProjector(t.db, balanceHistoryProjector, { decode: walletDecoder })).differences,
    ).toEqual([]);
    await rebuildProjector(t.db, transactionsProjector, { decode: walletDecoder, batchSize: 1 });
    expect(await listed()).toEqual(before);
  });
});
