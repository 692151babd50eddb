import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import {
  cancelSupply,
  initiateSupply,
  rejectBankSupply,
  validateBankSupply,
} from '../domain/index.js';
import { useTestDatabase } from '@filiere/platform/testing';
import { checkProjector } from '@filiere/projections';
import { suppliesProjector } from './supplies.js';
import {
  walletCatalogue,
  walletDecoder,
  projectWallet,
  RecordingLedger,
  testBank,
  testSuperAdmin,
} from './test-support.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

describe('wallet_supplies: a supply cancelled by its payer, one rejected by a super admin', () => {
  const ledger = new RecordingLedger();
  const payer = ledger.open('wa', 'ua');
  let pushes: Awaited<ReturnType<typeof projectWallet>>;

  const initiate = (reference: string, method: 'MOBILE_MONEY' | 'BANK', payerPhone?: string) =>
    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet('wa'), supply: ledger.supply(reference) },
        { reference, walletId: 'wa', method, amount: 7_000, payerPhone: payerPhone ?? null },
        payer,
        { bank: testBank },
      ),
    );

  beforeAll(async () => {
    initiate('APP-MOMO', 'MOBILE_MONEY', '+2290196000001');
    initiate('APP-BANK', 'BANK');
    initiate('APP-OK', 'BANK');
    ledger.apply(cancelSupply(ledger.supply('APP-MOMO'), { reference: 'APP-MOMO' }, payer));
    ledger.apply(
      rejectBankSupply(
        ledger.supply('APP-BANK'),
        { reference: 'APP-BANK', reason: 'Aucun virement reçu' },
        testSuperAdmin,
      ),
    );
    ledger.apply(
      validateBankSupply(
        { supply: ledger.supply('APP-OK'), wallet: ledger.wallet('wa') },
        { reference: 'APP-OK', retypedReference: 'APP-OK' },
        testSuperAdmin,
      ),
    );
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    pushes = await projectWallet(t.db);
  });

  it('both become FAILED with why (CANCELLED, REJECTED and its reason); the payer’s number is kept', async () => {
    const rows = await t.db
      .selectFrom('wallet_supplies')
      .select(['reference', 'status', 'failure_code', 'failure_reason', 'payer_phone'])
      .orderBy('reference')
      .execute();
    expect(rows).toEqual([
      {
        reference: 'APP-BANK',
        status: 'FAILED',
        failure_code: 'REJECTED',
        failure_reason: 'Aucun virement reçu',
        payer_phone: null,
      },
      {
        reference: 'APP-MOMO',
        status: 'FAILED',
        failure_code: 'CANCELLED',
        failure_reason: null,
        payer_phone: '+2290196000001',
      },
      {
        reference: 'APP-OK',
        status: 'SUCCESS',
        failure_code: null,
        failure_reason: null,
        payer_phone: null,
      },
    ]);
  });

  it('tells the requester of the rejected supply, once, with the reason', () => {
    expect(pushes.filter((p) => p.type === 'supply.rejected')).toEqual([
      {
        type: 'supply.rejected',
        userIds: ['ua'],
        data: { reference: 'APP-BANK', reason: 'Aucun virement reçu' },
      },
    ]);
  });

  it('a replay writes the same rows', async () => {
    const check = await checkProjector(t.db, suppliesProjector, { decode: walletDecoder });
    expect(check.differences).toEqual([]);
  });
});
