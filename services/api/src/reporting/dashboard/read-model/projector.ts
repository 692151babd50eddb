import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { beninDay } from '@filiere/platform';
import { defineProjector, type RecordedEvent } from '@filiere/projections';
import type { IdentityTables } from '../../../identity/index.js';
import { ROLE } from '../../../kernel/roles.js';
import { EVERYONE, type DashboardTables } from '../tables.js';
import { dashboardPush } from '../pushes.js';

/**
 * The event types the dashboard follows, by their catalogue names: the growers area's (a
 * grower's user, cluster, cooperative), the contracts' (delivery contracts, debts) and the
 * carriage area's.
 */
export const DASHBOARD_EVENT_TYPES = [
  'GrowerRegistered',
  'GrowerChanged',
  'DeliveryContractCreated',
  'DeliveryContractConfirmed',
  'DeliveryRecorded',
  'DeliveryContractOutOfTime',
  'DeliveryContractCanceled',
  'DeliveryContractSettled',
  'DebtOpened',
  'DebtRecovered',
  'CarriageContractCreated',
  'CarriageContractCanceled',
  'CarriageContractPaid',
];

/** Its tables, and identity's users and roles (read from `public` to address pushes). */
type Tables = DashboardTables & Pick<IdentityTables, 'users' | 'roles'>;

type Contract = DashboardTables['dashboard_contracts'];
type Debt = DashboardTables['dashboard_debts'];
type Grower = DashboardTables['dashboard_growers'];
type Daily = Pick<
  DashboardTables['dashboard_daily'],
  'contracts' | 'quantity_kg' | 'amount' | 'delivered_kg'
>;
type Purchase = Pick<
  DashboardTables['dashboard_purchases'],
  'contracts' | 'delivered_kg' | 'paid' | 'grower_net'
>;
type DebtDay = Pick<
  DashboardTables['dashboard_debt_daily'],
  'opened' | 'opened_count' | 'recovered'
>;
type DebtOpened = Pick<
  DashboardTables['dashboard_debt_opened'],
  'debts' | 'principal' | 'recovered'
>;

/** Data of the events it reads (validated on append by their contexts' catalogues). */
interface D {
  userId: string;
  clusterId: string | null;
  growerId: string;
  cooperativeId: string | null;
  changes: { field: string; to: string | number | null }[];
  contractId: string;
  aggregatorUserId: string;
  quantityKg: number;
  amount: number;
  createdAt: string;
  deliveredKg: number;
  payableAmount: number;
  growerNet: number;
  settledAt: string;
  debtId: string;
  kind: string;
  creditorUserId: string;
  debtorGrowerId: string;
  principal: number;
  openedAt: string;
  recoveredAt: string;
}

const SEP = '\u0000';

/**
 * Per batch: the rows the batch touches are loaded once, changed in memory in event order,
 * then written back, and the day tables get the batch's deltas added (every key touched is
 * written, even at a net zero, so a replay in other batches leaves the same rows).
 */
class Batch {
  growers = new Map<string, Grower>();
  contracts = new Map<string, Contract>();
  debts = new Map<string, Debt>();
  touched = { growers: new Set<string>(), contracts: new Set<string>() };
  touchedDebts = new Set<string>();
  daily = new Map<string, Daily>();
  purchases = new Map<string, Purchase>();
  debtDaily = new Map<string, DebtDay>();
  debtOpened = new Map<string, DebtOpened>();
  links = new Set<string>();
  /** Whose figures changed: aggregators' and creditors' user ids, growers' ids, clusters. */
  aggregators = new Set<string>();
  creditors = new Set<string>();
  growerIds = new Set<string>();

  addDaily(owner: string, family: string, day: string, status: string, sign: 1 | -1, c: Contract) {
    const key = [owner, family, day, status].join(SEP);
    const d = this.daily.get(key) ?? { contracts: 0, quantity_kg: 0, amount: 0, delivered_kg: 0 };
    d.contracts += sign;
    d.quantity_kg += sign * c.quantity_kg;
    d.amount += sign * c.amount;
    d.delivered_kg += sign * c.delivered_kg;
    this.daily.set(key, d);
  }

  /**
   * Adds (+1) or removes (−1) a contract from its status rows: its aggregator's, everyone's
   * (the sum over aggregators, scope ALL) and its grower's.
   */
  place(c: Contract, sign: 1 | -1) {
    this.addDaily(c.aggregator_user_id, c.family, c.day, c.status, sign, c);
    this.addDaily(EVERYONE, c.family, c.day, c.status, sign, c);
    if (c.grower_id) this.addDaily(c.grower_id, 'GROWER', c.day, c.status, sign, c);
    this.aggregators.add(c.aggregator_user_id);
    if (c.grower_id) this.growerIds.add(c.grower_id);
  }

  move(contractId: string, change: (c: Contract) => void) {
    const c = this.contracts.get(contractId);
    if (!c) return;
    this.place(c, -1);
    change(c);
    this.place(c, 1);
    this.touched.contracts.add(contractId);
  }

  addPurchase(side: 'AGGREGATOR' | 'GROWER', owner: string, day: string, p: Purchase) {
    const key = [side, owner, day].join(SEP);
    const d = this.purchases.get(key) ?? { contracts: 0, delivered_kg: 0, paid: 0, grower_net: 0 };
    d.contracts += p.contracts;
    d.delivered_kg += p.delivered_kg;
    d.paid += p.paid;
    d.grower_net += p.grower_net;
    this.purchases.set(key, d);
  }

  /** A debt's opening (debts 1, principal) or a recovery on it, at its opening day. */
  addDebtOpened(debt: Debt, p: DebtOpened) {
    for (const creditor of [debt.creditor_user_id, EVERYONE]) {
      const key = [creditor, debt.kind, debt.opened_day].join(SEP);
      const d = this.debtOpened.get(key) ?? { debts: 0, principal: 0, recovered: 0 };
      d.debts += p.debts;
      d.principal += p.principal;
      d.recovered += p.recovered;
      this.debtOpened.set(key, d);
    }
  }

  addDebtDay(debt: Debt, day: string, p: DebtDay) {
    const key = [debt.grower_id, debt.creditor_user_id, debt.kind, day].join(SEP);
    const d = this.debtDaily.get(key) ?? { opened: 0, opened_count: 0, recovered: 0 };
    d.opened += p.opened;
    d.opened_count += p.opened_count;
    d.recovered += p.recovered;
    this.debtDaily.set(key, d);
    this.creditors.add(debt.creditor_user_id);
    this.growerIds.add(debt.grower_id);
  }
}

async function load(trx: Kysely<Tables>, batch: Batch, events: RecordedEvent[]) {
  const growerIds = new Set<string>();
  const contractIds = new Set<string>();
  const debtIds = new Set<string>();
  for (const e of events) {
    const d = e.data as Partial<D>;
    if (e.type.startsWith('Grower')) growerIds.add(d.growerId!);
    else if (e.type.startsWith('Debt')) debtIds.add(d.debtId!);
    else contractIds.add(d.contractId!);
  }
  const chunks = <T>(ids: Set<string>, run: (part: string[]) => Promise<T[]>) =>
    (async () => {
      const all = [...ids];
      const out: T[] = [];
      for (let i = 0; i < all.length; i += 5_000) out.push(...(await run(all.slice(i, i + 5_000))));
      return out;
    })();
  for (const g of await chunks(growerIds, (part) =>
    trx.selectFrom('dashboard_growers').selectAll().where('grower_id', 'in', part).execute(),
  ))
    batch.growers.set(g.grower_id, g);
  for (const c of await chunks(contractIds, (part) =>
    trx.selectFrom('dashboard_contracts').selectAll().where('contract_id', 'in', part).execute(),
  ))
    batch.contracts.set(c.contract_id, c);
  for (const debt of await chunks(debtIds, (part) =>
    trx.selectFrom('dashboard_debts').selectAll().where('debt_id', 'in', part).execute(),
  ))
    batch.debts.set(debt.debt_id, debt);
}

function applyEvent(batch: Batch, e: RecordedEvent) {
  const d = e.data as D;
  switch (e.type) {
    case 'GrowerRegistered':
      batch.growers.set(d.growerId, {
        grower_id: d.growerId,
        user_id: d.userId,
        cluster_id: d.clusterId,
        cooperative_id: d.cooperativeId,
      });
      batch.touched.growers.add(d.growerId);
      break;
    case 'GrowerChanged': {
      const g = batch.growers.get(d.growerId);
      const change = d.changes.find((c) => c.field === 'cooperative_id');
      if (!g || !change) break;
      g.cooperative_id = change.to === null ? null : String(change.to);
      batch.touched.growers.add(d.growerId);
      break;
    }
    case 'DeliveryContractCreated':
    case 'CarriageContractCreated': {
      const delivery = e.type === 'DeliveryContractCreated';
      const c: Contract = {
        contract_id: d.contractId,
        family: delivery ? 'DELIVERY' : 'CARRIAGE',
        aggregator_user_id: d.aggregatorUserId,
        grower_id: delivery ? d.growerId : null,
        day: beninDay(d.createdAt),
        status: delivery ? 'PENDING' : 'CREATED',
        quantity_kg: delivery ? d.quantityKg : 0,
        amount: d.amount,
        delivered_kg: 0,
      };
      batch.contracts.set(c.contract_id, c);
      batch.touched.contracts.add(c.contract_id);
      batch.place(c, 1);
      if (delivery) batch.links.add([d.aggregatorUserId, d.growerId].join(SEP));
      break;
    }
    case 'DeliveryContractConfirmed':
      batch.move(d.contractId, (c) => void (c.status = 'CONFIRMED'));
      break;
    case 'DeliveryRecorded':
      batch.move(d.contractId, (c) => {
        c.status = 'DELIVERED';
        c.delivered_kg = d.deliveredKg;
      });
      break;
    case 'DeliveryContractOutOfTime':
      batch.move(d.contractId, (c) => void (c.status = 'OUTTIME'));
      break;
    case 'DeliveryContractCanceled':
    case 'CarriageContractCanceled':
      batch.move(d.contractId, (c) => void (c.status = 'CANCELED'));
      break;
    case 'CarriageContractPaid':
      batch.move(d.contractId, (c) => void (c.status = 'PAID'));
      break;
    case 'DeliveryContractSettled': {
      batch.move(d.contractId, (c) => {
        c.status = 'COMPLETED';
        c.delivered_kg = d.deliveredKg;
      });
      const c = batch.contracts.get(d.contractId);
      if (!c) break;
      const day = beninDay(d.settledAt);
      const p = {
        contracts: 1,
        delivered_kg: d.deliveredKg,
        paid: d.payableAmount,
        grower_net: d.growerNet,
      };
      batch.addPurchase('AGGREGATOR', c.aggregator_user_id, day, p);
      batch.addPurchase('AGGREGATOR', EVERYONE, day, p);
      if (c.grower_id) batch.addPurchase('GROWER', c.grower_id, day, p);
      break;
    }
    case 'DebtOpened': {
      const debt: Debt = {
        debt_id: d.debtId,
        kind: d.kind,
        creditor_user_id: d.creditorUserId,
        grower_id: d.debtorGrowerId,
        principal: d.principal,
        recovered: 0,
        opened_day: beninDay(d.openedAt),
      };
      batch.debts.set(debt.debt_id, debt);
      batch.touchedDebts.add(debt.debt_id);
      batch.addDebtDay(debt, debt.opened_day, {
        opened: debt.principal,
        opened_count: 1,
        recovered: 0,
      });
      batch.addDebtOpened(debt, { debts: 1, principal: debt.principal, recovered: 0 });
      break;
    }
    case 'DebtRecovered': {
      const debt = batch.debts.get(d.debtId);
      if (!debt) break;
      debt.recovered += d.amount;
      batch.touchedDebts.add(debt.debt_id);
      batch.addDebtDay(debt, beninDay(d.recoveredAt), {
        opened: 0,
        opened_count: 0,
        recovered: d.amount,
      });
      batch.addDebtOpened(debt, { debts: 0, principal: 0, recovered: d.amount });
      break;
    }
  }
}

const added = (table: string, columns: readonly string[]) =>
  Object.fromEntries(
    columns.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + excluded.${sql.ref(c)}`]),
  );

async function inChunks<T>(rows: T[], write: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 2_000) await write(rows.slice(i, i + 2_000));
}

async function flush(trx: Kysely<Tables>, batch: Batch) {
  const pick = <T>(map: Map<string, T>, keys: Set<string>) =>
    [...keys].map((k) => map.get(k)).filter((v): v is T => v !== undefined);
  await inChunks(pick(batch.growers, batch.touched.growers), (rows) =>
    trx
      .insertInto('dashboard_growers')
      .values(rows)
      .onConflict((oc) =>
        oc.column('grower_id').doUpdateSet({
          user_id: (eb) => eb.ref('excluded.user_id'),
          cluster_id: (eb) => eb.ref('excluded.cluster_id'),
          cooperative_id: (eb) => eb.ref('excluded.cooperative_id'),
        }),
      )
      .execute(),
  );
  await inChunks(pick(batch.contracts, batch.touched.contracts), (rows) =>
    trx
      .insertInto('dashboard_contracts')
      .values(rows)
      .onConflict((oc) =>
        oc.column('contract_id').doUpdateSet({
          status: (eb) => eb.ref('excluded.status'),
          delivered_kg: (eb) => eb.ref('excluded.delivered_kg'),
        }),
      )
      .execute(),
  );
  await inChunks(pick(batch.debts, batch.touchedDebts), (rows) =>
    trx
      .insertInto('dashboard_debts')
      .values(rows)
      .onConflict((oc) =>
        oc.column('debt_id').doUpdateSet({ recovered: (eb) => eb.ref('excluded.recovered') }),
      )
      .execute(),
  );
  const split = (key: string) => key.split(SEP);
  await inChunks([...batch.daily], (rows) =>
    trx
      .insertInto('dashboard_daily')
      .values(
        rows.map(([key, v]) => {
          const [owner_id, family, day, status] = split(key) as [string, string, string, string];
          return { owner_id, family: family as Contract['family'], day, status, ...v };
        }),
      )
      .onConflict((oc) =>
        oc
          .columns(['owner_id', 'family', 'day', 'status'])
          .doUpdateSet(
            added('dashboard_daily', ['contracts', 'quantity_kg', 'amount', 'delivered_kg']),
          ),
      )
      .execute(),
  );
  await inChunks([...batch.purchases], (rows) =>
    trx
      .insertInto('dashboard_purchases')
      .values(
        rows.map(([key, v]) => {
          const [side, owner_id, day] = split(key) as ['AGGREGATOR' | 'GROWER', string, string];
          return { side, owner_id, day, ...v };
        }),
      )
      .onConflict((oc) =>
        oc
          .columns(['side', 'owner_id', 'day'])
          .doUpdateSet(
            added('dashboard_purchases', ['contracts', 'delivered_kg', 'paid', 'grower_net']),
          ),
      )
      .execute(),
  );
  await inChunks([...batch.debtDaily], (rows) =>
    trx
      .insertInto('dashboard_debt_daily')
      .values(
        rows.map(([key, v]) => {
          const [grower_id, creditor_user_id, kind, day] = split(key) as [
            string,
            string,
            string,
            string,
          ];
          return { grower_id, creditor_user_id, kind, day, ...v };
        }),
      )
      .onConflict((oc) =>
        oc
          .columns(['grower_id', 'creditor_user_id', 'kind', 'day'])
          .doUpdateSet(added('dashboard_debt_daily', ['opened', 'opened_count', 'recovered'])),
      )
      .execute(),
  );
  await inChunks([...batch.debtOpened], (rows) =>
    trx
      .insertInto('dashboard_debt_opened')
      .values(
        rows.map(([key, v]) => {
          const [creditor_user_id, kind, opened_day] = split(key) as [string, string, string];
          return { creditor_user_id, kind, opened_day, ...v };
        }),
      )
      .onConflict((oc) =>
        oc
          .columns(['creditor_user_id', 'kind', 'opened_day'])
          .doUpdateSet(added('dashboard_debt_opened', ['debts', 'principal', 'recovered'])),
      )
      .execute(),
  );
  const newLinks: DashboardTables['dashboard_aggregator_growers'][] = [];
  await inChunks([...batch.links], async (rows) =>
    newLinks.push(
      ...(await trx
        .insertInto('dashboard_aggregator_growers')
        .values(
          rows.map((key) => {
            const [aggregator_user_id, grower_id] = split(key) as [string, string];
            return { aggregator_user_id, grower_id };
          }),
        )
        .onConflict((oc) => oc.columns(['aggregator_user_id', 'grower_id']).doNothing())
        .returning(['aggregator_user_id', 'grower_id'])
        .execute()),
    ),
  );
  await flushRollup(trx, batch, newLinks);
}

type Rollup = DashboardTables['dashboard_debt_rollup'];

/**
 * dashboard_debt_rollup (migrations/20261128_0100_dashboard_debt_rollup.ts): each row is the
 * sum of its scope's growers' dashboard_debt_daily rows at that day and kind — ALL, the
 * grower's cluster, and every aggregator linked to the grower. Per batch: the batch's
 * debt_daily deltas go to ALL, to the grower's cluster and to the aggregators linked BEFORE
 * the batch; an aggregator newly linked in the batch (`newLinks`, the rows the link insert
 * actually added) takes the grower's whole debt_daily (already including this batch's
 * deltas). So the rows depend only on the events, not on how they were batched, and a
 * rebuild gives the same table (every key touched is written, as for the other day tables).
 */
async function flushRollup(
  trx: Kysely<Tables>,
  batch: Batch,
  newLinks: DashboardTables['dashboard_aggregator_growers'][],
) {
  if (!batch.debtDaily.size && !newLinks.length) return;
  const rollup = new Map<string, Pick<Rollup, 'opened' | 'recovered'>>();
  const add = (
    scope: Rollup['scope'],
    scopeId: string,
    day: string,
    kind: string,
    v: Pick<Rollup, 'opened' | 'recovered'>,
  ) => {
    const key = [scope, scopeId, day, kind].join(SEP);
    const r = rollup.get(key) ?? { opened: 0, recovered: 0 };
    r.opened += v.opened;
    r.recovered += v.recovered;
    rollup.set(key, r);
  };
  const deltas = [...batch.debtDaily].map(([key, v]) => {
    const [grower_id, , kind, day] = key.split(SEP) as [string, string, string, string];
    return { grower_id, kind, day, opened: v.opened, recovered: v.recovered };
  });
  const deltaGrowers = [...new Set(deltas.map((d) => d.grower_id))];
  const linked = new Map<string, string[]>();
  const fresh = new Set(newLinks.map((l) => [l.aggregator_user_id, l.grower_id].join(SEP)));
  for (let i = 0; i < deltaGrowers.length; i += 5_000) {
    const part = deltaGrowers.slice(i, i + 5_000);
    const [growers, links] = await Promise.all([
      part.some((g) => !batch.growers.has(g))
        ? trx
            .selectFrom('dashboard_growers')
            .selectAll()
            .where(
              'grower_id',
              'in',
              part.filter((g) => !batch.growers.has(g)),
            )
            .execute()
        : Promise.resolve([]),
      trx
        .selectFrom('dashboard_aggregator_growers')
        .select(['aggregator_user_id', 'grower_id'])
        .where('grower_id', 'in', part)
        .execute(),
    ]);
    for (const g of growers) if (!batch.growers.has(g.grower_id)) batch.growers.set(g.grower_id, g);
    for (const l of links) {
      // Linked in this batch: that aggregator takes the grower's whole history below.
      if (fresh.has([l.aggregator_user_id, l.grower_id].join(SEP))) continue;
      linked.set(l.grower_id, [...(linked.get(l.grower_id) ?? []), l.aggregator_user_id]);
    }
  }
  for (const d of deltas) {
    add('ALL', '', d.day, d.kind, d);
    const cluster = batch.growers.get(d.grower_id)?.cluster_id;
    if (cluster) add('CLUSTER', cluster, d.day, d.kind, d);
    for (const aggregator of linked.get(d.grower_id) ?? []) {
      add('AGGREGATOR', aggregator, d.day, d.kind, d);
    }
  }
  const newlyLinked = new Map<string, string[]>();
  for (const l of newLinks) {
    newlyLinked.set(l.grower_id, [...(newlyLinked.get(l.grower_id) ?? []), l.aggregator_user_id]);
  }
  const growersLinked = [...newlyLinked.keys()];
  for (let i = 0; i < growersLinked.length; i += 5_000) {
    const history = await trx
      .selectFrom('dashboard_debt_daily')
      .select(['grower_id', 'day', 'kind', 'opened', 'recovered'])
      .where('grower_id', 'in', growersLinked.slice(i, i + 5_000))
      .execute();
    for (const h of history) {
      for (const aggregator of newlyLinked.get(h.grower_id)!) {
        add('AGGREGATOR', aggregator, h.day, h.kind, h);
      }
    }
  }
  await inChunks([...rollup], (rows) =>
    trx
      .insertInto('dashboard_debt_rollup')
      .values(
        rows.map(([key, v]) => {
          const [scope, scope_id, day, kind] = key.split(SEP) as [
            Rollup['scope'],
            string,
            string,
            string,
          ];
          return { scope, scope_id, day, kind, ...v };
        }),
      )
      .onConflict((oc) =>
        oc
          .columns(['scope', 'scope_id', 'day', 'kind'])
          .doUpdateSet(added('dashboard_debt_rollup', ['opened', 'recovered'])),
      )
      .execute(),
  );
}

/**
 * Whose dashboard changed: the aggregators and creditors (SFD, aggregator) concerned, the
 * growers' users and their cooperatives' representatives, the cluster managers of the
 * growers' and aggregators' clusters, and every super admin and admin (their dashboard sums
 * everything). Staff are read from identity's live `users` table (`public`, whatever schema a
 * rebuild writes to): it only addresses pushes, never the read tables.
 */
async function recipients(trx: Kysely<Tables>, batch: Batch): Promise<string[]> {
  if (!batch.aggregators.size && !batch.creditors.size && !batch.growerIds.size) return [];
  const users = new Set<string>([...batch.aggregators, ...batch.creditors]);
  const growerIds = [...batch.growerIds];
  const clusters = new Set<string>();
  const cooperatives = new Set<string>();
  for (let i = 0; i < growerIds.length; i += 5_000) {
    const rows = await trx
      .selectFrom('dashboard_growers')
      .select(['user_id', 'cluster_id', 'cooperative_id'])
      .where('grower_id', 'in', growerIds.slice(i, i + 5_000))
      .execute();
    for (const g of rows) {
      users.add(g.user_id);
      if (g.cluster_id) clusters.add(g.cluster_id);
      if (g.cooperative_id) cooperatives.add(g.cooperative_id);
    }
  }
  const live = trx.withSchema('public');
  const staff = [...batch.aggregators, ...batch.creditors];
  for (let i = 0; i < staff.length; i += 5_000) {
    const rows = await live
      .selectFrom('users')
      .select('cluster_id')
      .where('id', 'in', staff.slice(i, i + 5_000))
      .where('cluster_id', 'is not', null)
      .execute();
    for (const r of rows) clusters.add(r.cluster_id!);
  }
  const watchers = await live
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .where((eb) =>
      eb.or([
        eb('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN]),
        ...(clusters.size
          ? [
              eb.and([
                eb('r.code', '=', ROLE.CLUSTER_MANAGER),
                eb('u.cluster_id', 'in', [...clusters]),
              ]),
            ]
          : []),
        ...(cooperatives.size
          ? [
              eb.and([
                eb('r.code', '=', ROLE.FARMER_ORGANIZATION),
                eb('u.organization_id', 'in', [...cooperatives]),
              ]),
            ]
          : []),
      ]),
    )
    .execute();
  for (const w of watchers) users.add(w.id);
  return [...users].sort();
}

/**
 * `reporting-dashboard`: the dashboard's figures per aggregator, grower and day (tables in
 * migrations/20261127_0100_dashboard.ts). Days come from the events' own instants (creation,
 * settlement, opening, recovery) in Benin time, so a replay gives the same rows. After its
 * write it pushes `reporting.dashboard` (no data) to the users whose figures changed.
 */
export const dashboardProjector = defineProjector<Tables>({
  name: 'reporting-dashboard',
  eventTypes: DASHBOARD_EVENT_TYPES,
  tables: [
    'dashboard_growers',
    'dashboard_contracts',
    'dashboard_daily',
    'dashboard_purchases',
    'dashboard_debts',
    'dashboard_debt_daily',
    'dashboard_aggregator_growers',
    'dashboard_debt_rollup',
    'dashboard_debt_opened',
  ],
  async apply(trx, events, ctx) {
    if (!events.length) return;
    const batch = new Batch();
    await load(trx, batch, events);
    for (const e of events) applyEvent(batch, e);
    await flush(trx, batch);
    const userIds = await recipients(trx, batch);
    if (userIds.length) ctx.push(dashboardPush({ type: 'reporting.dashboard', userIds }));
  },
});
