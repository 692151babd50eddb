import { sql } from 'kysely';
import { defineProjector, intArray, textArray } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, defined } from './events.js';
import type { OwnersTables } from './events.js';
import { plus, type Exact } from './exact.js';

const OWNERS = 'wallet_reporting_owners';
const COLUMNS = [
  'count_debit',
  'total_debit',
  'count_supplies',
  'total_supplies',
  'count_transfer',
  'total_transfer',
] as const;
type Column = (typeof COLUMNS)[number];
/** Counts and totals, exact: many large events would round in JavaScript numbers. */
type Totals = Record<Column, Exact>;

type ReportingTables = Pick<WalletReadTables, 'wallet_reporting_totals'> & OwnersTables;

/**
 * `wallet_reporting_totals` per wallet: withdrawals debited (countDebit/totalDebit),
 * supplies credited, transfers sent. Global figures are the sum over wallets.
 *
 * One statement a batch: its CTEs record the batch's owners and add its totals (one array
 * literal per column, spread by `unnest`), and it reads the owners of the wallets whose totals
 * moved, for the push. The CTEs' rows are not visible to that read, so the owners of wallets
 * opened in the batch come from its WalletOpened: a stored owner wins, then the batch's first
 * (as `on conflict do nothing` keeps them).
 */
export const reportingProjector = defineProjector<ReportingTables>({
  name: 'wallet-reporting',
  eventTypes: ['WalletOpened', 'SupplyCredited', 'TransferSent', 'WithdrawalDebited'],
  tables: ['wallet_reporting_totals', OWNERS],
  async apply(trx, events, ctx) {
    const openedWallets: string[] = [];
    const openedUsers: string[] = [];
    const opened = new Map<string, string>();
    const totals = new Map<string, Totals>();
    const add = (walletId: string, count: Column, total: Column, amount: number) => {
      let t = totals.get(walletId);
      if (!t) {
        t = {
          count_debit: 0,
          total_debit: 0,
          count_supplies: 0,
          total_supplies: 0,
          count_transfer: 0,
          total_transfer: 0,
        };
        totals.set(walletId, t);
      }
      t[count] = plus(t[count], 1);
      t[total] = plus(t[total], amount);
    };
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      switch (event.type) {
        case 'WalletOpened':
          openedWallets.push(event.data.walletId);
          openedUsers.push(event.data.ownerUserId);
          if (!opened.has(event.data.walletId)) {
            opened.set(event.data.walletId, event.data.ownerUserId);
          }
          break;
        case 'SupplyCredited':
          add(event.data.walletId, 'count_supplies', 'total_supplies', event.data.amount);
          break;
        case 'TransferSent':
          add(event.data.fromWalletId, 'count_transfer', 'total_transfer', event.data.amount);
          break;
        case 'WithdrawalDebited':
          add(event.data.walletId, 'count_debit', 'total_debit', event.data.amount);
          break;
      }
    }
    if (!openedWallets.length && !totals.size) return;
    const walletIds = [...totals.keys()];
    const rows = [...totals.values()];
    const column = (c: Column) => sql`${intArray(rows.map((t) => t[c]))}::bigint[]`;
    const stored = await trx
      .with('o', (db) =>
        db
          .insertInto(OWNERS)
          .columns(['wallet_id', 'user_id'])
          .expression(
            sql<never>`select * from unnest(${textArray(openedWallets)}::text[],
              ${textArray(openedUsers)}::text[])`,
          )
          .onConflict((oc) => oc.column('wallet_id').doNothing()),
      )
      .with('t', (db) =>
        db
          .insertInto('wallet_reporting_totals')
          .columns(['wallet_id', ...COLUMNS])
          .expression(
            sql<never>`select * from unnest(${textArray(walletIds)}::text[],
              ${sql.join(COLUMNS.map(column))})`,
          )
          .onConflict((oc) =>
            oc
              .column('wallet_id')
              .doUpdateSet(
                Object.fromEntries(
                  COLUMNS.map((c) => [
                    c,
                    sql`${sql.ref(`wallet_reporting_totals.${c}`)} + excluded.${sql.ref(c)}`,
                  ]),
                ),
              ),
          ),
      )
      .selectFrom(OWNERS)
      .select(['wallet_id', 'user_id'])
      .where('wallet_id', '=', sql<string>`any(${textArray(walletIds)}::text[])`)
      .execute();
    const owners = new Map(stored.map((r) => [r.wallet_id, r.user_id]));
    const userIds = defined(walletIds.map((w) => owners.get(w) ?? opened.get(w)));
    if (userIds.length) ctx.push(walletPush({ type: 'reporting.updated', userIds }));
  },
});
