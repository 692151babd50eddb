import { sql, type Kysely } from 'kysely';
import { defineProjector, anyText, bigints, ints, texts, unnest } from '@filiere/projections';
import type { IdentityTables } from '../../../identity/index.js';
import { ROLE } from '../../../kernel/roles.js';
import { boardPush } from '../pushes.js';
import type { BoardTables } from '../tables.js';
import { identityUsers } from '../../../identity/index.js';

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

type Wallet = BoardTables['board_wallets'];
type Grower = BoardTables['board_growers'];
type Plot = BoardTables['board_plots'];

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

/**
 * A batch folded in memory, written in a few statements whatever its size, with the rows one
 * statement per event left:
 *
 * - a plot is added to its grower, or its area moved (`setPlot`): the plots the batch names are
 *   read once; a known plot keeps its grower and takes the new area, a new one is inserted
 *   with the event's grower; the grower's count and area move by the difference;
 * - a grower's count and area are deltas ADDED to its row (`update … + v.delta`), which changes
 *   nothing when the row does not exist, as the per-event update did; a grower registered in
 *   the batch is inserted with the deltas that came after its registration (those before went
 *   to the update, which runs first: it finds no row, or the insert fails on the duplicate as
 *   it did);
 * - per wallet, its owner (the last WalletOpened) and the six totals, added to its row.
 */
class Batch {
  plots = new Map<string, Plot>();
  touchedPlots = new Set<string>();
  registered = new Map<string, Grower>();
  /** Deltas for growers' rows that exist before the batch (or never do). */
  deltas = new Map<string, { plots: number; area: number }>();
  wallets = new Map<string, Wallet>();
  growersChanged = false;

  setPlot(growerId: string, plotId: string, e4: number) {
    const before = this.plots.get(plotId);
    if (before) {
      this.addToGrower(growerId, 0, e4 - before.area_sown_e4);
      before.area_sown_e4 = e4;
    } else {
      this.plots.set(plotId, { plot_id: plotId, grower_id: growerId, area_sown_e4: e4 });
      this.addToGrower(growerId, 1, e4);
    }
    this.touchedPlots.add(plotId);
    this.growersChanged = true;
  }

  addToGrower(growerId: string, plots: number, area: number) {
    const row = this.registered.get(growerId);
    if (row) {
      row.plots += plots;
      row.area_sown_e4 += area;
      return;
    }
    const delta = this.deltas.get(growerId);
    if (delta) {
      delta.plots += plots;
      delta.area += area;
    } else this.deltas.set(growerId, { plots, area });
  }

  register(d: Data) {
    if (this.registered.has(d.growerId)) {
      // Registered twice: the per-event insert failed on the duplicate key.
      throw new Error(`grower ${d.growerId} registered twice in one batch`);
    }
    this.registered.set(d.growerId, {
      grower_id: d.growerId,
      user_id: d.userId,
      cluster_id: d.clusterId,
      reference: d.reference,
      plots: 0,
      area_sown_e4: 0,
    });
    this.growersChanged = true;
  }

  wallet(walletId: string): Wallet {
    let w = this.wallets.get(walletId);
    if (!w) {
      w = {
        wallet_id: walletId,
        user_id: null,
        count_debit: 0,
        total_debit: 0,
        count_supplies: 0,
        total_supplies: 0,
        count_transfer: 0,
        total_transfer: 0,
      };
      this.wallets.set(walletId, w);
    }
    return w;
  }
}

/** One array per column: `column(rows, 'x')` = every row's x, in order. */
function column<T, K extends keyof T>(rows: readonly T[], key: K): T[K][] {
  const out = new Array<T[K]>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = rows[i]![key];
  return out;
}

/** The plots the batch's grower and plot events name, as they stand before it. */
function plotIds(events: { type: string; data: unknown }[]): string[] {
  const ids = new Set<string>();
  for (const e of events) {
    const d = e.data as Data;
    if (e.type === 'GrowerRegistered') for (const p of d.plots ?? []) ids.add(p.plotId);
    else if (e.type === 'PlotAdded' || e.type === 'PlotChanged') ids.add(d.plotId);
  }
  return [...ids];
}

async function writeGrowers(trx: Kysely<Tables>, batch: Batch) {
  const plots = [...batch.touchedPlots].map((id) => batch.plots.get(id)!);
  if (plots.length) {
    await trx
      .insertInto('board_plots')
      .columns(['plot_id', 'grower_id', 'area_sown_e4'])
      .expression(
        unnest(
          texts(column(plots, 'plot_id')),
          texts(column(plots, 'grower_id')),
          bigints(column(plots, 'area_sown_e4')),
        ),
      )
      .onConflict((oc) =>
        oc.column('plot_id').doUpdateSet({ area_sown_e4: (eb) => eb.ref('excluded.area_sown_e4') }),
      )
      .execute();
  }
  if (batch.deltas.size) {
    const ids = [...batch.deltas.keys()];
    const deltas = [...batch.deltas.values()];
    const values = sql<{ grower_id: string; plots: number; area: number }>`(select * from unnest(
      ${texts(ids)}, ${ints(column(deltas, 'plots'))}, ${bigints(column(deltas, 'area'))}
    ) as t(grower_id, plots, area))`;
    await trx
      .updateTable('board_growers')
      .from(values.as('v'))
      .set((eb) => ({
        plots: eb(eb.ref('board_growers.plots'), '+', eb.ref('v.plots')),
        area_sown_e4: eb(eb.ref('board_growers.area_sown_e4'), '+', eb.ref('v.area')),
      }))
      .whereRef('board_growers.grower_id', '=', 'v.grower_id')
      // The planner's index condition: without it, a join against the whole table.
      .where('board_growers.grower_id', '=', anyText(ids))
      .execute();
  }
  const registered = [...batch.registered.values()];
  if (registered.length) {
    await trx
      .insertInto('board_growers')
      .columns(['grower_id', 'user_id', 'cluster_id', 'reference', 'plots', 'area_sown_e4'])
      .expression(
        unnest(
          texts(column(registered, 'grower_id')),
          sql`${texts(column(registered, 'user_id'))}::uuid[]`,
          sql`${texts(column(registered, 'cluster_id'))}::uuid[]`,
          texts(column(registered, 'reference')),
          ints(column(registered, 'plots')),
          bigints(column(registered, 'area_sown_e4')),
        ),
      )
      .execute();
  }
}

/**
 * `reporting-board`: the super admin's reporting board (tables in
 * migrations/20261127_0200_board.ts). Growers and plots from the growers area's events
 * (`GrowerRegistered` with its plots' areas, `PlotAdded`, `PlotChanged` of area_sown); per
 * wallet, withdrawals debited, supplies credited and transfers sent (the wallet's
 * `transaction/stats` figures). A batch is folded in memory (`Batch`) and written in one
 * statement per table. After its write it pushes `reporting.board` to the active super admins
 * (read from identity's live `users`: it only addresses pushes).
 */
export const boardProjector = defineProjector<Tables>({
  name: 'reporting-board',
  eventTypes: BOARD_EVENT_TYPES,
  tables: ['board_growers', 'board_plots', 'board_wallets'],
  async apply(trx, events, ctx) {
    const batch = new Batch();
    const plots = plotIds(events);
    if (plots.length) {
      const rows = await trx
        .selectFrom('board_plots')
        .selectAll()
        .where('plot_id', '=', anyText(plots))
        .execute();
      for (const p of rows) batch.plots.set(p.plot_id, p);
    }
    for (const e of events) {
      const d = e.data as Data;
      switch (e.type) {
        case 'GrowerRegistered':
          batch.register(d);
          for (const plot of d.plots ?? []) {
            batch.setPlot(d.growerId, plot.plotId, areaE4(plot.areaSown));
          }
          break;
        case 'PlotAdded':
          batch.setPlot(d.growerId, d.plotId, areaE4(d.areaSown));
          break;
        case 'PlotChanged': {
          const change = d.changes.find((c) => c.field === 'area_sown');
          if (!change) break;
          batch.setPlot(d.growerId, d.plotId, areaE4(change.to));
          break;
        }
        case 'WalletOpened':
          batch.wallet(d.walletId).user_id = d.ownerUserId;
          break;
        case 'SupplyCredited': {
          const w = batch.wallet(d.walletId);
          w.count_supplies += 1;
          w.total_supplies += d.amount;
          break;
        }
        case 'TransferSent': {
          const w = batch.wallet(d.fromWalletId);
          w.count_transfer += 1;
          w.total_transfer += d.amount;
          break;
        }
        case 'WithdrawalDebited': {
          const w = batch.wallet(d.walletId);
          w.count_debit += 1;
          w.total_debit += d.amount;
          break;
        }
      }
    }
    if (batch.growersChanged) await writeGrowers(trx, batch);
    const wallets = [...batch.wallets.values()];
    if (wallets.length) {
      await trx
        .insertInto('board_wallets')
        .columns([
          'wallet_id',
          'user_id',
          'count_debit',
          'total_debit',
          'count_supplies',
          'total_supplies',
          'count_transfer',
          'total_transfer',
        ])
        .expression(
          unnest(
            texts(column(wallets, 'wallet_id')),
            sql`${texts(column(wallets, 'user_id'))}::uuid[]`,
            bigints(column(wallets, 'count_debit')),
            bigints(column(wallets, 'total_debit')),
            bigints(column(wallets, 'count_supplies')),
            bigints(column(wallets, 'total_supplies')),
            bigints(column(wallets, 'count_transfer')),
            bigints(column(wallets, 'total_transfer')),
          ),
        )
        .onConflict((oc) =>
          oc.column('wallet_id').doUpdateSet({
            user_id: sql`coalesce(excluded.user_id, board_wallets.user_id)`,
            count_debit: sql`board_wallets.count_debit + excluded.count_debit`,
            total_debit: sql`board_wallets.total_debit + excluded.total_debit`,
            count_supplies: sql`board_wallets.count_supplies + excluded.count_supplies`,
            total_supplies: sql`board_wallets.total_supplies + excluded.total_supplies`,
            count_transfer: sql`board_wallets.count_transfer + excluded.count_transfer`,
            total_transfer: sql`board_wallets.total_transfer + excluded.total_transfer`,
          }),
        )
        .execute();
    }
    const totals = wallets.some((w) => w.count_debit || w.count_supplies || w.count_transfer);
    if (!batch.growersChanged && !totals) return;
    const admins = await trx
      .withSchema('public')
      .selectFrom(identityUsers('public').as('u'))
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
