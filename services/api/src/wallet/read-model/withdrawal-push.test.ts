import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import { completeWithdrawal, failWithdrawal, requestWithdrawal } from '../domain/index.js';
import { useTestDatabase } from '@filiere/platform/testing';
import { projectWallet, RecordingLedger, walletCatalogue } from './test-support.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

describe('withdrawal.settled: the owner hears how its withdrawal ended', () => {
  const ledger = new RecordingLedger();
  const a = ledger.open('wa', 'ua');
  const b = ledger.open('wb', 'ub');
  let pushes: Awaited<ReturnType<typeof projectWallet>>;

  beforeAll(async () => {
    ledger.fund(a, 10_000, 'S-A');
    ledger.fund(b, 10_000, 'S-B');
    const request = (
      wallet: typeof a,
      id: string,
      method: 'MOBILE_MONEY' | 'BANK',
      amount: number,
    ) =>
      ledger.apply(
        requestWithdrawal(
          { wallet: ledger.wallet(wallet.walletId!), withdrawal: ledger.withdrawal(id) },
          { withdrawalId: id, walletId: wallet.walletId!, method, amount },
          wallet,
          { destination: method === 'BANK' ? 'BJ0660100100000012340000' : '+2290197000001' },
        ),
      );
    request(a, 'W-A', 'BANK', 2_000);
    request(b, 'W-B', 'MOBILE_MONEY', 1_000);
    request(b, 'W-C', 'MOBILE_MONEY', 500);
    ledger.apply(
      failWithdrawal(
        { withdrawal: ledger.withdrawal('W-A'), wallet: ledger.wallet('wa') },
        { withdrawalId: 'W-A', reason: 'Compte refusé' },
      ),
    );
    ledger.apply(
      completeWithdrawal(ledger.withdrawal('W-B'), { withdrawalId: 'W-B' }, { bankCode: 'BOA' }),
    );
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    pushes = await projectWallet(t.db);
  });

  it('pushes a paid withdrawal and a refunded one to their owner only, once each', () => {
    const settled = pushes.filter((p) => p.type === 'withdrawal.settled');
    expect(settled).toEqual([
      {
        type: 'withdrawal.settled',
        userIds: ['ua'],
        data: { withdrawalId: 'W-A', amount: 2_000, status: 'FAILED' },
      },
      {
        type: 'withdrawal.settled',
        userIds: ['ub'],
        data: { withdrawalId: 'W-B', amount: 1_000, status: 'SUCCESS' },
      },
    ]);
  });

  it('pushes after the row changed: the same batch also refreshes the owners’ lists', () => {
    const types = pushes.map((p) => p.type);
    expect(types.indexOf('withdrawal.settled')).toBeGreaterThan(
      types.indexOf('transactions.updated'),
    );
  });
});
