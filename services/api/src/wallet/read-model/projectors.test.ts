import { beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '@filiere/event-store';
import {
  completeWithdrawal,
  failWithdrawal,
  finance,
  initiateSupply,
  placeHold,
  requestWithdrawal,
  transfer,
  verifySupply,
} from '../domain/index.js';
import { useTestDatabase } from '@filiere/platform/testing';
import { beninMonth } from './events.js';
import { projectWallet, RecordingLedger, testBank, walletCatalogue } from './test-support.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();

describe('wallet projectors given a day of wallet events', () => {
  const ledger = new RecordingLedger();
  const a = ledger.open('wa', 'ua');
  const b = ledger.open('wb', 'ub');
  const recipientB = {
    userId: 'ub',
    role: 'ROLE_INDUSTRIAL',
    clusterId: 'c1',
    status: 'ACTIVE' as const,
  };
  let pushes: Awaited<ReturnType<typeof projectWallet>>;

  beforeAll(async () => {
    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet('wa'), supply: ledger.supply('S-A') },
        { reference: 'S-A', walletId: 'wa', method: 'MOBILE_MONEY', amount: 10_000 },
        a,
        { bank: testBank },
      ),
    );
    ledger.apply(
      verifySupply(
        { supply: ledger.supply('S-A'), wallet: ledger.wallet('wa') },
        { reference: 'S-A' },
        a,
        {
          verification: {
            status: 'SUCCESS',
            amount: 10_000,
            reference: 'S-A',
            transactionId: 'kk-1',
          },
        },
      ),
    );
    ledger.fund(b, 5_000, 'S-B');
    ledger.apply(
      transfer(
        { source: ledger.wallet('wa'), destination: ledger.wallet('wb') },
        {
          reference: 'T-1',
          sourceWalletId: 'wa',
          destinationWalletId: 'wb',
          amount: 3_000,
          reason: 'Achat d’ananas',
        },
        a,
        { recipient: recipientB },
      ),
    );
    ledger.apply(
      finance(
        { source: ledger.wallet('wa'), destination: ledger.wallet('wb') },
        { reference: 'F-1', sourceWalletId: 'wa', destinationWalletId: 'wb', amount: 1_000 },
        a,
        { recipient: recipientB },
      ),
    );
    ledger.apply(
      requestWithdrawal(
        { wallet: ledger.wallet('wa'), withdrawal: ledger.withdrawal('W-A') },
        { withdrawalId: 'W-A', walletId: 'wa', method: 'MOBILE_MONEY', amount: 2_000 },
        a,
        { destination: '+2290197000001' },
      ),
    );
    ledger.apply(
      failWithdrawal(
        { withdrawal: ledger.withdrawal('W-A'), wallet: ledger.wallet('wa') },
        { withdrawalId: 'W-A', reason: 'Numéro injoignable' },
      ),
    );
    ledger.apply(
      requestWithdrawal(
        { wallet: ledger.wallet('wb'), withdrawal: ledger.withdrawal('W-B') },
        { withdrawalId: 'W-B', walletId: 'wb', method: 'BANK', amount: 1_000 },
        b,
        { destination: 'BJ066' },
      ),
    );
    ledger.apply(
      completeWithdrawal(ledger.withdrawal('W-B'), { withdrawalId: 'W-B' }, { bankCode: 'BOA' }),
    );
    ledger.apply(
      placeHold(ledger.wallet('wa'), { holdId: 'H-1', amount: 500, purpose: 'Contrat' }),
    );
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    pushes = await projectWallet(t.db);
  });

  it('balances: balance, held, available balance and last transaction per wallet', async () => {
    const balances = await t.db
      .selectFrom('wallet_balances')
      .selectAll()
      .orderBy('wallet_id')
      .execute();
    expect(balances).toMatchObject([
      { wallet_id: 'wa', owner_user_id: 'ua', balance: 6_000, held: 500, available_balance: 5_500 },
      { wallet_id: 'wb', owner_user_id: 'ub', balance: 8_000, held: 0, available_balance: 8_000 },
    ]);
    expect(balances[0]!.last_transaction_amount).toBe(2_000); // the refund
    expect(balances[1]!.last_transaction_amount).toBe(1_000); // the withdrawal
    expect(balances[0]!.last_transaction_date).toBeInstanceOf(Date);
  });

  it('transactions: one row per wallet and movement, with ids of both sides and statuses', async () => {
    const txs = await t.db.selectFrom('wallet_transactions').selectAll().orderBy('id').execute();
    const summary = txs.map((r) => [
      r.wallet_id,
      r.operation_type,
      r.direction,
      r.amount,
      r.status,
    ]);
    expect(summary).toEqual([
      ['wa', 'SUPPLY', 'IN', 10_000, 'SUCCESS'],
      ['wb', 'SUPPLY', 'IN', 5_000, 'SUCCESS'],
      ['wa', 'TRANSFER', 'OUT', 3_000, 'SUCCESS'],
      ['wb', 'TRANSFER', 'IN', 3_000, 'SUCCESS'],
      ['wa', 'STANDARD', 'OUT', 1_000, 'SUCCESS'],
      ['wb', 'STANDARD', 'IN', 1_000, 'SUCCESS'],
      ['wa', 'DEBIT', 'OUT', 2_000, 'FAILED'],
      ['wa', 'REFUND', 'IN', 2_000, 'SUCCESS'],
      ['wb', 'DEBIT', 'OUT', 1_000, 'SUCCESS'],
    ]);
    const sent = txs.find((r) => r.key === 'transfer:T-1:out')!;
    expect(sent).toMatchObject({
      reference: 'T-1',
      reason: 'Achat d’ananas',
      user_id: 'ua',
      source_wallet_id: 'wa',
      destination_wallet_id: 'wb',
      source_user_id: 'ua',
      destination_user_id: 'ub',
    });
    expect(txs[0]).toMatchObject({ payment_means: 'MOBILE_MONEY', reference: 'S-A' });
    expect(txs.find((r) => r.key === 'withdrawal:W-A')).toMatchObject({
      payment_means: 'MOBILE_MONEY',
      destination: '+2290197000001',
    });
  });

  it('monthly counts: created rows per wallet in the month of their event (Benin time)', async () => {
    const counts = await t.db
      .selectFrom('wallet_monthly_counts')
      .selectAll()
      .orderBy('wallet_id')
      .execute();
    const { year, month } = beninMonth(new Date());
    expect(counts).toEqual([
      { wallet_id: 'wa', year, month, count: 5 },
      { wallet_id: 'wb', year, month, count: 4 },
    ]);
  });

  it('supplies: list rows with final statuses, and per-user stats of credited supplies', async () => {
    expect(
      await t.db.selectFrom('wallet_supplies').selectAll().orderBy('reference').execute(),
    ).toMatchObject([
      {
        reference: 'S-A',
        method: 'MOBILE_MONEY',
        status: 'SUCCESS',
        provider_transaction_id: 'kk-1',
      },
      {
        reference: 'S-B',
        method: 'BANK',
        status: 'SUCCESS',
        bank_code: 'BOA',
        validated_by: 'u-super',
      },
    ]);
    expect(
      await t.db.selectFrom('wallet_supply_stats').selectAll().orderBy('user_id').execute(),
    ).toMatchObject([
      { user_id: 'ua', supplies: 1, last_supply_amount: 10_000 },
      { user_id: 'ub', supplies: 1, last_supply_amount: 5_000 },
    ]);
  });

  it('financing: one row completed by both sides', async () => {
    expect(
      await t.db.selectFrom('wallet_financings').selectAll().orderBy('reference').execute(),
    ).toMatchObject([
      {
        reference: 'F-1',
        from_user_id: 'ua',
        to_user_id: 'ub',
        from_wallet_id: 'wa',
        to_wallet_id: 'wb',
        amount: 1_000,
        status: 'SUCCESS',
      },
    ]);
  });

  it('reporting: debits, supplies and transfers per wallet', async () => {
    expect(
      await t.db.selectFrom('wallet_reporting_totals').selectAll().orderBy('wallet_id').execute(),
    ).toEqual([
      {
        wallet_id: 'wa',
        count_debit: 1,
        total_debit: 2_000,
        count_supplies: 1,
        total_supplies: 10_000,
        count_transfer: 1,
        total_transfer: 3_000,
      },
      {
        wallet_id: 'wb',
        count_debit: 1,
        total_debit: 1_000,
        count_supplies: 1,
        total_supplies: 5_000,
        count_transfer: 0,
        total_transfer: 0,
      },
    ]);
  });

  it('each projector pushes to the users it touched', () => {
    const types = new Map<string, Set<string>>();
    for (const p of pushes) {
      const set = types.get(p.type) ?? new Set<string>();
      p.userIds.forEach((id) => set.add(id));
      types.set(p.type, set);
    }
    for (const type of [
      'wallet.updated',
      'transactions.updated',
      'supplies.updated',
      'financing.updated',
      'reporting.updated',
    ]) {
      expect([...(types.get(type) ?? [])].sort(), type).toEqual(['ua', 'ub']);
    }
  });
});

describe('admin pushes of bank supplies', () => {
  it('a bank supply’s changes reach active super admins and admins; mobile money only its owner', async () => {
    // Users of the identity tables: role ids 1 super admin, 2 admin, 3 grower.
    const user = async (role_id: number, is_active = true) =>
      (
        await t.db
          .insertInto('users')
          .values({
            firstname: 'A',
            lastname: `B${role_id}`,
            email: `u${role_id}-${is_active}-${Math.random()}@test.bj`,
            username: `u${role_id}-${Math.random()}`,
            role_id,
            is_active,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id as string;
    const superAdmin = await user(1);
    const admin = await user(2);
    await user(2, false);
    await user(3);
    await projectWallet(t.db); // the first describe's events, whatever their order

    const ledger = new RecordingLedger();
    const owner = ledger.open('wc', 'uc');
    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet('wc'), supply: ledger.supply('S-BANK') },
        { reference: 'S-BANK', walletId: 'wc', method: 'BANK', amount: 7_000 },
        owner,
        { bank: testBank },
      ),
    );
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    const bank = (await projectWallet(t.db)).filter((p) => p.type === 'supplies.updated');
    expect(bank.flatMap((p) => p.userIds).sort()).toEqual(['uc', admin, superAdmin].sort());

    ledger.apply(
      initiateSupply(
        { wallet: ledger.wallet('wc'), supply: ledger.supply('S-MOMO') },
        { reference: 'S-MOMO', walletId: 'wc', method: 'MOBILE_MONEY', amount: 1_000 },
        owner,
        { bank: testBank },
      ),
    );
    await ledger.flush(new EventStore(t.db, walletCatalogue));
    const momo = (await projectWallet(t.db)).filter((p) => p.type === 'supplies.updated');
    expect(momo.flatMap((p) => p.userIds)).toEqual(['uc']);
  });
});
