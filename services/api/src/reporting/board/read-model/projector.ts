import { sql, type Kysely } from 'kysely';
import { defineProjector } from '@filiere/projections';
import type { IdentityTables } from '../../../identity/index.js';
import { ROLE } from '../../../kernel/roles.js';
import { boardPush } from '../pushes.js';
import type { BoardTables } from '../tables.js';

/** The event types the board follows: the growers area's and the wallet's, by catalogue name. */
export const BOARD_EVENT_TYPES = [
  'GrowerRegistered',
  'PlotAdded',
  'PlotChanged',
  'WalletOpened',
  'SupplyCredited',
  'TransferSent',
  'WithdrawalDebited',
];

/** Its tables, and identity's users and roles (read from `public` to address pushes). */
type Tables = BoardTables & Pick<IdentityTables, 'users' | 'roles'>;

const TOTALS = [
  'count_debit',
  'total_debit',
  'count_supplies',
  'total_supplies',
  'count_transfer',
  'total_transfer',
] as const;
type Totals = Record<(typeof TOTALS)[number], number>;

/** Hectares (as entered, at most 4 decimals) → integer ten-thousandths, exact in sums. */
export const areaE4 = (ha: number | string | null | undefined): number => {
  const n = typeof ha === 'string' ? Number(ha) : (ha ?? 0);
  return Number.isFinite(n) ? Math.round(n * 10_000) : 0;
};

interface Data {
  growerId: string;
  userId: string;
  reference: string;
  clusterId: string;
  plots?: { plotId: string; areaSown: number }[];
  plotId: string;
  areaSown: number;
  changes: { field: string; to: string | number | null }[];
  walletId: string;
  ownerUserId: string;
  fromWalletId: string;
  amount: number;
}

/** Adds a plot to its grower (or moves its area). */
async function setPlot(trx: Kysely<Tables>, growerId: string, plotId: string, e4: number) {
  const before = await trx
    .selectFrom('board_plots')
    .select('area_sown_e4')
    .where('plot_id', '=', plotId)
    .executeTakeFirst();
  if (before) {
    await trx
      .updateTable('board_plots')
      .set({ area_sown_e4: e4 })
      .where('plot_id', '=', plotId)
      .execute();
  } else {
    await trx
      .insertInto('board_plots')
      .values({ plot_id: plotId, grower_id: growerId, area_sown_e4: e4 })
      .execute();
  }
  await trx
    .updateTable('board_growers')
    .set({
      plots: sql`plots + ${before ? 0 : 1}`,
      area_sown_e4: sql`area_sown_e4 + ${e4 - (before?.area_sown_e4 ?? 0)}`,
    })
    .where('grower_id', '=', growerId)
    .execute();
}

/**
 * `reporting-board`: the super admin's reporting board (tables in
 * migrations/20261127_0200_board.ts). Growers and plots from the growers area's events
 * (`GrowerRegistered` with its plots' areas, `PlotAdded`, `PlotChanged` of area_sown); per
 * wallet, withdrawals debited, supplies credited and transfers sent (the wallet's
 * `transaction/stats` figures). After its write it pushes `reporting.board` to the active
 * super admins (read from identity's live `users`: it only addresses pushes).
 */
export const boardProjector = defineProjector<Tables>({
  name: 'reporting-board',
  eventTypes: BOARD_EVENT_TYPES,
  tables: ['board_growers', 'board_plots', 'board_wallets'],
  async apply(trx, events, ctx) {
    const owners = new Map<string, string>();
    const totals = new Map<string, Totals>();
    const add = (walletId: string, kind: 'debit' | 'supplies' | 'transfer', amount: number) => {
      const t = totals.get(walletId) ?? (Object.fromEntries(TOTALS.map((c) => [c, 0])) as Totals);
      t[`count_${kind}`] += 1;
      t[`total_${kind}`] += amount;
      totals.set(walletId, t);
    };
    let growersChanged = false;
    for (const e of events) {
      const d = e.data as Data;
      switch (e.type) {
        case 'GrowerRegistered':
          await trx
            .insertInto('board_growers')
            .values({
              grower_id: d.growerId,
              user_id: d.userId,
              cluster_id: d.clusterId,
              reference: d.reference,
              plots: 0,
              area_sown_e4: 0,
            })
            .execute();
          for (const plot of d.plots ?? []) {
            await setPlot(trx, d.growerId, plot.plotId, areaE4(plot.areaSown));
          }
          growersChanged = true;
          break;
        case 'PlotAdded':
          await setPlot(trx, d.growerId, d.plotId, areaE4(d.areaSown));
          growersChanged = true;
          break;
        case 'PlotChanged': {
          const change = d.changes.find((c) => c.field === 'area_sown');
          if (!change) break;
          await setPlot(trx, d.growerId, d.plotId, areaE4(change.to));
          growersChanged = true;
          break;
        }
        case 'WalletOpened':
          owners.set(d.walletId, d.ownerUserId);
          break;
        case 'SupplyCredited':
          add(d.walletId, 'supplies', d.amount);
          break;
        case 'TransferSent':
          add(d.fromWalletId, 'transfer', d.amount);
          break;
        case 'WithdrawalDebited':
          add(d.walletId, 'debit', d.amount);
          break;
      }
    }
    const wallets = new Set([...owners.keys(), ...totals.keys()]);
    const zero = Object.fromEntries(TOTALS.map((c) => [c, 0])) as Totals;
    const rows = [...wallets].map((wallet_id) => ({
      wallet_id,
      user_id: owners.get(wallet_id) ?? null,
      ...(totals.get(wallet_id) ?? zero),
    }));
    for (let i = 0; i < rows.length; i += 2_000) {
      await trx
        .insertInto('board_wallets')
        .values(rows.slice(i, i + 2_000))
        .onConflict((oc) =>
          oc.column('wallet_id').doUpdateSet({
            user_id: sql`coalesce(excluded.user_id, board_wallets.user_id)`,
            ...Object.fromEntries(
              TOTALS.map((c) => [
                c,
                sql`${sql.ref(`board_wallets.${c}`)} + excluded.${sql.ref(c)}`,
              ]),
            ),
          }),
        )
        .execute();
    }
    if (!growersChanged && !totals.size) return;
    const admins = await trx
      .withSchema('public')
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select('u.id')
      .where('r.code', '=', ROLE.SUPER_ADMIN)
      .where('u.deleted_at', 'is', null)
      .where('u.is_active', '=', true)
      .execute();
    if (admins.length) {
      ctx.push(boardPush({ type: 'reporting.board', userIds: admins.map((a) => a.id) }));
    }
  },
});
