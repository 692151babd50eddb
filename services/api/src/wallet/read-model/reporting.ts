import { sql } from 'kysely';
import { defineProjector } from '@filiere/projections';
import type { WalletReadTables } from '../tables.js';
import { walletPush } from '../pushes.js';
import { asWalletEvent, defined, loadOwners, recordOwners } from './events.js';
import type { OwnersTables } from './events.js';

const OWNERS = 'wallet_reporting_owners';
const COLUMNS = [
  'count_debit',
  'total_debit',
  'count_supplies',
  'total_supplies',
  'count_transfer',
  'total_transfer',
] as const;
/** Counts and totals as bigint: many large events would round in JavaScript numbers. */
type Totals = Record<(typeof COLUMNS)[number], bigint>;

type ReportingTables = Pick<WalletReadTables, 'wallet_reporting_totals'> & OwnersTables;

/**
 * `wallet_reporting_totals` per wallet: withdrawals debited (countDebit/totalDebit),
 * supplies credited, transfers sent. Global figures are the sum over wallets.
 */
export const reportingProjector = defineProjector<ReportingTables>({
  name: 'wallet-reporting',
  eventTypes: ['WalletOpened', 'SupplyCredited', 'TransferSent', 'WithdrawalDebited'],
  tables: ['wallet_reporting_totals', OWNERS],
  async apply(trx, events, ctx) {
    await recordOwners(trx, OWNERS, events);
    const totals = new Map<string, Totals>();
    const add = (walletId: string, kind: 'debit' | 'supplies' | 'transfer', amount: number) => {
      const t =
        totals.get(walletId) ??
        (Object.fromEntries(COLUMNS.map((c) => [c, 0n])) as unknown as Totals);
      t[`count_${kind}`] += 1n;
      t[`total_${kind}`] += BigInt(amount);
      totals.set(walletId, t);
    };
    for (const recorded of events) {
      const event = asWalletEvent(recorded);
      if (event.type === 'SupplyCredited') add(event.data.walletId, 'supplies', event.data.amount);
      if (event.type === 'TransferSent')
        add(event.data.fromWalletId, 'transfer', event.data.amount);
      if (event.type === 'WithdrawalDebited') add(event.data.walletId, 'debit', event.data.amount);
    }
    if (!totals.size) return;
    await trx
      .insertInto('wallet_reporting_totals')
      .values(
        [...totals].map(([wallet_id, t]) => ({
          wallet_id,
          ...Object.fromEntries(COLUMNS.map((c) => [c, t[c].toString()])),
        })),
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
      )
      .execute();
    const owners = await loadOwners(trx, OWNERS, totals.keys());
    const userIds = defined([...totals.keys()].map((w) => owners.get(w)));
    if (userIds.length) ctx.push(walletPush({ type: 'reporting.updated', userIds }));
  },
});
