import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { beninDay, narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catchUp, checkProjector } from '@filiere/projections';
import { advanceReference } from '../../kernel/references.js';
import { captureHold, placeHold, settleHold } from '../domain/index.js';
import { balanceHistoryProjector } from '../history/projector.js';
import { statementOf } from '../history/point-in-time.js';
import type { WalletHistoryTables } from '../history/tables.js';
import { projectWallet, RecordingLedger, walletCatalogue, walletDecoder } from './test-support.js';
import { transactionsProjector } from './transactions.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

/**
 * The rows a contract's hold pays showed the hold's id as their reference (`contract-<uuid>`):
 * they show the contract's reference that ends the hold's purpose (the code alone: the purpose
 * is French text, a reference is data shown in every language). A hold whose purpose ends in
 * no code (an input provider's assignment) shows its own reference (kernel/references.ts).
 */
describe('hold payments show the contract’s reference, not the hold’s id', () => {
  const CONTRACT = 'contract-4f0c2a8e-0a4e-4b8e-9a55-2f1f3c1b9e01';
  const ASSIGNMENT = 'input-assignment-7';
  const contractLabel = 'Contrat de livraison CL-2026-00042';
  const contractCode = 'CL-2026-00042';
  const assignmentLabel = 'Fournisseur d’intrant, saison 3 : 10 kg × 500 F CFA';
  // A delivery paid from the assignment shows the input advance it opens.
  const delivery = advanceReference('AVANCE_SUR_INTRANT', 'input-advance-1');

  beforeAll(async () => {
    const ledger = new RecordingLedger();
    const store = new EventStore(t.db, walletCatalogue);
    const payer = ledger.open('wa', 'ua');
    ledger.open('wb', 'ub');
    ledger.open('wc', 'uc');
    ledger.fund(payer, 20_000, 'S-A');
    ledger.apply(
      placeHold(ledger.wallet('wa'), { holdId: CONTRACT, amount: 8_000, purpose: contractLabel }),
    );
    ledger.apply(
      placeHold(ledger.wallet('wa'), {
        holdId: ASSIGNMENT,
        amount: 5_000,
        purpose: assignmentLabel,
      }),
    );
    // The contract is paid in the batch that places its hold…
    ledger.apply(
      captureHold(
        { wallet: ledger.wallet('wa'), destinations: { wb: ledger.wallet('wb') } },
        { holdId: CONTRACT, payments: [{ walletId: 'wb', amount: 8_000 }] },
      ),
    );
    await ledger.flush(store);
    await projectWallet(t.db);
    // …the provider in a later one (the label comes from the table).
    ledger.apply(
      settleHold(
        { wallet: ledger.wallet('wa'), destinations: { wc: ledger.wallet('wc') } },
        {
          holdId: ASSIGNMENT,
          settlementId: 'delivery-1',
          payments: [{ walletId: 'wc', amount: 2_000 }],
          closeHold: false,
          allowExcess: false,
        },
      ),
    );
    await ledger.flush(store);
    await projectWallet(t.db);
    await catchUp(t.db, balanceHistoryProjector, { decode: walletDecoder });
  });

  it('transactions list: the contract’s code on both sides of its payment; an input delivery its advance’s', async () => {
    const rows = await t.db
      .selectFrom('wallet_transactions')
      .select(['wallet_id', 'direction', 'reference'])
      .where('operation_type', '=', 'STANDARD')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { wallet_id: 'wa', direction: 'OUT', reference: contractCode },
      { wallet_id: 'wb', direction: 'IN', reference: contractCode },
      { wallet_id: 'wa', direction: 'OUT', reference: delivery },
      { wallet_id: 'wc', direction: 'IN', reference: delivery },
    ]);
  });

  it('a rebuild gives the same rows (ledger:check)', async () => {
    const result = await checkProjector(t.db, transactionsProjector, { decode: walletDecoder });
    expect(result.differences).toEqual([]);
  });

  it('statement: the contract hold’s movements carry its code', async () => {
    // The statement's days are Benin's: from 23:00 UTC the movements are already tomorrow's.
    const today = beninDay(new Date());
    const statement = await statementOf(
      narrowDb<WalletHistoryTables>()(t.db) as never,
      'wa',
      { from: '2026-01-01', to: today > '2026-01-01' ? today : '2026-01-01' },
      { page: 1, limit: 50 },
    );
    const references = statement.movements.map((m) => [m.type, m.reference]);
    expect(references).toEqual(
      expect.arrayContaining([
        ['HoldPlaced', contractCode],
        ['HoldCaptured', contractCode],
        ['HoldSettlementPaid', delivery],
      ]),
    );
    expect(references.flat()).not.toContain(CONTRACT);
    expect(references.flat()).not.toContain(contractLabel);
  });
});
