import { sql } from 'kysely';
import type { Kysely, QueryCreator } from 'kysely';
import { beninDay } from '@filiere/platform';
import {
  defineProjector,
  type RecordedEvent,
  anyText,
  anyUuid,
  bigints,
  ints,
  textArray,
  texts,
  unnest,
} from '@filiere/projections';
import { identityUsers, type IdentityTables } from '../../../identity/index.js';
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
type Daily = DashboardTables['dashboard_daily'];
type Purchase = DashboardTables['dashboard_purchases'];
type DebtDay = DashboardTables['dashboard_debt_daily'];
type DebtOpened = DashboardTables['dashboard_debt_opened'];
type Link = DashboardTables['dashboard_aggregator_growers'];
type Rollup = DashboardTables['dashboard_debt_rollup'];

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
 * written, even at a net zero, so a replay in other batches leaves the same rows). The loaded
 * and new rows are the batch's own objects (never an event's: events may be shared).
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
  links = new Map<string, Link>();
  /** Aggregators linked to the growers of the batch's debts BEFORE the batch, per grower. */
  linkedBefore = new Map<string, string[]>();
  /** Whose figures changed: aggregators' and creditors' user ids, growers' ids, clusters. */
  aggregators = new Set<string>();
  creditors = new Set<string>();
  growerIds = new Set<string>();
  /** Benin days of the batch's instants, by their UTC hour (`beninDay` costs µs per call). */
  private days = new Map<string, string>();

  addDaily(owner: string, family: Daily['family'], c: Contract, sign: 1 | -1) {
    const key = owner + SEP + family + SEP + c.day + SEP + c.status;
    let d = this.daily.get(key);
    if (!d) {
      d = {
        owner_id: owner,
        family,
        day: c.day,
        status: c.status,
        contracts: 0,
        quantity_kg: 0,
        amount: 0,
        delivered_kg: 0,
      };
      this.daily.set(key, d);
    }
    d.contracts += sign;
    d.quantity_kg += sign * c.quantity_kg;
    d.amount += sign * c.amount;
    d.delivered_kg += sign * c.delivered_kg;
  }

  /**
   * Adds (+1) or removes (−1) a contract from its status rows: its aggregator's, everyone's
   * (the sum over aggregators, scope ALL) and its grower's.
   */
  place(c: Contract, sign: 1 | -1) {
    this.addDaily(c.aggregator_user_id, c.family, c, sign);
    this.addDaily(EVERYONE, c.family, c, sign);
    if (c.grower_id) this.addDaily(c.grower_id, 'GROWER', c, sign);
    this.aggregators.add(c.aggregator_user_id);
    if (c.grower_id) this.growerIds.add(c.grower_id);
  }

  /** The contract leaves its status rows, takes `status` (and `deliveredKg`), and enters. */
  move(contractId: string, status: string, deliveredKg?: number): Contract | undefined {
    const c = this.contracts.get(contractId);
    if (!c) return undefined;
    this.place(c, -1);
    c.status = status;
    if (deliveredKg !== undefined) c.delivered_kg = deliveredKg;
    this.place(c, 1);
    this.touched.contracts.add(contractId);
    return c;
  }

  addPurchase(side: Purchase['side'], owner: string, day: string, d: D) {
    const key = side + SEP + owner + SEP + day;
    let p = this.purchases.get(key);
    if (!p) {
      p = { side, owner_id: owner, day, contracts: 0, delivered_kg: 0, paid: 0, grower_net: 0 };
      this.purchases.set(key, p);
    }
    p.contracts += 1;
    p.delivered_kg += d.deliveredKg;
    p.paid += d.payableAmount;
    p.grower_net += d.growerNet;
  }

  /** A debt's opening (debts 1, principal) or a recovery on it, at its opening day. */
  addDebtOpened(debt: Debt, debts: number, principal: number, recovered: number) {
    for (const creditor of [debt.creditor_user_id, EVERYONE]) {
      const key = creditor + SEP + debt.kind + SEP + debt.opened_day;
      let d = this.debtOpened.get(key);
      if (!d) {
        d = {
          creditor_user_id: creditor,
          kind: debt.kind,
          opened_day: debt.opened_day,
          debts: 0,
          principal: 0,
          recovered: 0,
        };
        this.debtOpened.set(key, d);
      }
      d.debts += debts;
      d.principal += principal;
      d.recovered += recovered;
    }
  }

  addDebtDay(debt: Debt, day: string, opened: number, openedCount: number, recovered: number) {
    const key = debt.grower_id + SEP + debt.creditor_user_id + SEP + debt.kind + SEP + day;
    let d = this.debtDaily.get(key);
    if (!d) {
      d = {
        grower_id: debt.grower_id,
        creditor_user_id: debt.creditor_user_id,
        kind: debt.kind,
        day,
        opened: 0,
        opened_count: 0,
        recovered: 0,
      };
      this.debtDaily.set(key, d);
    }
    d.opened += opened;
    d.opened_count += openedCount;
    d.recovered += recovered;
    this.creditors.add(debt.creditor_user_id);
    this.growerIds.add(debt.grower_id);
  }

  /**
   * `beninDay(at)`, formatted once per UTC hour of the batch: Africa/Porto-Novo has been a
   * whole number of hours from UTC since 1919 (UTC+1 all year now), so every instant of one
   * UTC hour has the same Benin day. Only for the form `toISOString` gives
   * (`YYYY-MM-DDTHH:mm:ss.sssZ`, validated on append) from 1970 on; any other string is
   * formatted on its own.
   */
  day(at: string): string {
    if (
      at.length !== 24 ||
      at.charCodeAt(10) !== 84 /* T */ ||
      at.charCodeAt(23) !== 90 /* Z */ ||
      at < '1970'
    ) {
      return beninDay(at);
    }
    const hour = at.slice(0, 13);
    let day = this.days.get(hour);
    if (day === undefined) {
      day = beninDay(at);
      this.days.set(hour, day);
    }
    return day;
  }
}

/** A row of `load`'s answer: a contract (C), debt (D), grower (G) or prior link (L). */
interface Loaded {
  k: 'C' | 'D' | 'G' | 'L';
  t1: string;
  t2: string | null;
  t3: string | null;
  t4: string | null;
  t5: string | null;
  t6: string | null;
  n1: number | null;
  n2: number | null;
  n3: number | null;
}

/**
 * Loads the rows the batch's events touch, in ONE statement: their contracts and debts, the
 * growers of all of them (for the rollup's clusters and the pushes' recipients) and the
 * aggregators already linked to the growers of the debts (the rollup's AGGREGATOR scopes) —
 * before any write of the batch, so these are the links from before it. Each is a CTE whose
 * rows come out of one `union all` (text columns t1–t6, bigint columns n1–n3).
 */
async function load(trx: Kysely<Tables>, batch: Batch, events: RecordedEvent[]) {
  const growerIds = new Set<string>();
  const contractIds = new Set<string>();
  const debtIds = new Set<string>();
  const debtGrowers = new Set<string>();
  for (const e of events) {
    const d = e.data as Partial<D>;
    if (e.type.startsWith('Grower')) growerIds.add(d.growerId!);
    else if (e.type.startsWith('Debt')) {
      debtIds.add(d.debtId!);
      if (e.type === 'DebtOpened') debtGrowers.add(d.debtorGrowerId!);
    } else {
      contractIds.add(d.contractId!);
      if (e.type === 'DeliveryContractCreated') growerIds.add(d.growerId!);
    }
  }
  for (const g of debtGrowers) growerIds.add(g);
  const rows = await trx
    .with('c', (db) =>
      db
        .selectFrom('dashboard_contracts')
        .selectAll()
        .where('contract_id', '=', anyText([...contractIds])),
    )
    .with('d', (db) =>
      db
        .selectFrom('dashboard_debts')
        .selectAll()
        .where('debt_id', '=', anyText([...debtIds])),
    )
    .with('g', (db) =>
      db
        .selectFrom('dashboard_growers')
        .selectAll()
        .where(
          'grower_id',
          '=',
          sql<string>`any(${textArray([...growerIds])}::text[]
            || array(select c.grower_id from c where c.grower_id is not null)
            || array(select d.grower_id from d))`,
        ),
    )
    .with('l', (db) =>
      db
        .selectFrom('dashboard_aggregator_growers')
        .select(['aggregator_user_id', 'grower_id'])
        // A semi-join (hashed), not `= any(array(…))`: the table has no index by grower, and
        // a scan testing each row against a computed array compares it with every element.
        .where(
          'grower_id',
          'in',
          sql<string>`(select unnest(${textArray([...debtGrowers])}::text[])
            union all select d.grower_id from d)`,
        ),
    )
    .selectFrom(
      sql<Loaded>`(
        select 'C' as k, contract_id as t1, family as t2, aggregator_user_id as t3,
          grower_id as t4, day as t5, status as t6, quantity_kg as n1, amount as n2,
          delivered_kg as n3
        from c
        union all
        select 'D', debt_id, kind, creditor_user_id, grower_id, opened_day, null,
          principal, recovered, null
        from d
        union all
        select 'G', grower_id, user_id, cluster_id, cooperative_id, null, null, null, null, null
        from g
        union all
        select 'L', grower_id, aggregator_user_id, null, null, null, null, null, null, null
        from l
      )`.as('loaded'),
    )
    .selectAll()
    .execute();
  for (const r of rows) {
    switch (r.k) {
      case 'C':
        batch.contracts.set(r.t1, {
          contract_id: r.t1,
          family: r.t2 as Contract['family'],
          aggregator_user_id: r.t3!,
          grower_id: r.t4,
          day: r.t5!,
          status: r.t6!,
          quantity_kg: r.n1!,
          amount: r.n2!,
          delivered_kg: r.n3!,
        });
        break;
      case 'D':
        batch.debts.set(r.t1, {
          debt_id: r.t1,
          kind: r.t2!,
          creditor_user_id: r.t3!,
          grower_id: r.t4!,
          opened_day: r.t5!,
          principal: r.n1!,
          recovered: r.n2!,
        });
        break;
      case 'G':
        batch.growers.set(r.t1, {
          grower_id: r.t1,
          user_id: r.t2!,
          cluster_id: r.t3,
          cooperative_id: r.t4,
        });
        break;
      case 'L': {
        const linked = batch.linkedBefore.get(r.t1);
        if (linked) linked.push(r.t2!);
        else batch.linkedBefore.set(r.t1, [r.t2!]);
        break;
      }
    }
  }
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
        day: batch.day(d.createdAt),
        status: delivery ? 'PENDING' : 'CREATED',
        quantity_kg: delivery ? d.quantityKg : 0,
        amount: d.amount,
        delivered_kg: 0,
      };
      batch.contracts.set(c.contract_id, c);
      batch.touched.contracts.add(c.contract_id);
      batch.place(c, 1);
      if (delivery) {
        batch.links.set(d.aggregatorUserId + SEP + d.growerId, {
          aggregator_user_id: d.aggregatorUserId,
          grower_id: d.growerId,
        });
      }
      break;
    }
    case 'DeliveryContractConfirmed':
      batch.move(d.contractId, 'CONFIRMED');
      break;
    case 'DeliveryRecorded':
      batch.move(d.contractId, 'DELIVERED', d.deliveredKg);
      break;
    case 'DeliveryContractOutOfTime':
      batch.move(d.contractId, 'OUTTIME');
      break;
    case 'DeliveryContractCanceled':
    case 'CarriageContractCanceled':
      batch.move(d.contractId, 'CANCELED');
      break;
    case 'CarriageContractPaid':
      batch.move(d.contractId, 'PAID');
      break;
    case 'DeliveryContractSettled': {
      const c = batch.move(d.contractId, 'COMPLETED', d.deliveredKg);
      if (!c) break;
      const day = batch.day(d.settledAt);
      batch.addPurchase('AGGREGATOR', c.aggregator_user_id, day, d);
      batch.addPurchase('AGGREGATOR', EVERYONE, day, d);
      if (c.grower_id) batch.addPurchase('GROWER', c.grower_id, day, d);
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
        opened_day: batch.day(d.openedAt),
      };
      batch.debts.set(debt.debt_id, debt);
      batch.touchedDebts.add(debt.debt_id);
      batch.addDebtDay(debt, debt.opened_day, debt.principal, 1, 0);
      batch.addDebtOpened(debt, 1, debt.principal, 0);
      break;
    }
    case 'DebtRecovered': {
      const debt = batch.debts.get(d.debtId);
      if (!debt) break;
      debt.recovered += d.amount;
      batch.touchedDebts.add(debt.debt_id);
      batch.addDebtDay(debt, batch.day(d.recoveredAt), 0, 0, d.amount);
      batch.addDebtOpened(debt, 0, 0, d.amount);
      break;
    }
  }
}

const added = (table: string, columns: readonly string[]) =>
  Object.fromEntries(
    columns.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + excluded.${sql.ref(c)}`]),
  );

function pick<T>(map: Map<string, T>, keys: Set<string>): T[] {
  const rows: T[] = [];
  for (const k of keys) {
    const v = map.get(k);
    if (v !== undefined) rows.push(v);
  }
  return rows;
}

/** One array per column: `column(rows, 'x')` = every row's x, in order. */
function column<T, K extends keyof T>(rows: readonly T[], key: K): T[K][] {
  const out = new Array<T[K]>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = rows[i]![key];
  return out;
}

/** dashboard_debt_rollup rows being summed, by scope, scope id, day and kind. */
class Rollups {
  rows = new Map<string, Rollup>();

  add(
    scope: Rollup['scope'],
    scopeId: string,
    day: string,
    kind: string,
    opened: number,
    recovered: number,
  ) {
    const key = scope + SEP + scopeId + SEP + day + SEP + kind;
    let r = this.rows.get(key);
    if (!r) {
      r = { scope, scope_id: scopeId, day, kind, opened: 0, recovered: 0 };
      this.rows.set(key, r);
    }
    r.opened += opened;
    r.recovered += recovered;
  }
}

/**
 * dashboard_debt_rollup (migrations/20261128_0100_dashboard_debt_rollup.ts): each row is the
 * sum of its scope's growers' dashboard_debt_daily rows at that day and kind — ALL, the
 * grower's cluster, and every aggregator linked to the grower. Per batch: the batch's
 * debt_daily deltas go to ALL, to the grower's cluster and to the aggregators linked BEFORE
 * the batch (`batch.linkedBefore`, read before its writes; here); an aggregator newly linked
 * in the batch (the rows the link insert actually added) takes the grower's whole debt_daily,
 * this batch's deltas included (`addHistory`, after the batch's writes). Both are added to the
 * rows, so the rows depend only on the events, not on how they were batched, and a rebuild
 * gives the same table (every key touched is written, as for the other day tables).
 */
function rollupDeltas(batch: Batch): Rollup[] {
  const rollup = new Rollups();
  for (const d of batch.debtDaily.values()) {
    rollup.add('ALL', '', d.day, d.kind, d.opened, d.recovered);
    const cluster = batch.growers.get(d.grower_id)?.cluster_id;
    if (cluster) rollup.add('CLUSTER', cluster, d.day, d.kind, d.opened, d.recovered);
    for (const aggregator of batch.linkedBefore.get(d.grower_id) ?? []) {
      rollup.add('AGGREGATOR', aggregator, d.day, d.kind, d.opened, d.recovered);
    }
  }
  return [...rollup.rows.values()];
}

/** The rows of each table a batch writes, in the order of `WRITES`' columns. */
interface Writes {
  growers: Grower[];
  contracts: Contract[];
  debts: Debt[];
  daily: Daily[];
  purchases: Purchase[];
  debtDaily: DebtDay[];
  debtOpened: DebtOpened[];
  rollup: Rollup[];
  links: Link[];
}

/**
 * The batch's writes in ONE statement (each table's upsert a data-modifying CTE of one array
 * per column: they write different tables, so seeing one snapshot changes nothing), which
 * answers the aggregator–grower links it really added and the staff the push reaches
 * (`watchers`). One round trip instead of ten: each cost a wake-up of the backend and of Node,
 * beside its parse and plan.
 */
async function write(trx: Kysely<Tables>, w: Writes, to: Recipients | undefined) {
  const rows = await trx
    .with('w_growers', (db) =>
      db
        .insertInto('dashboard_growers')
        .columns(['grower_id', 'user_id', 'cluster_id', 'cooperative_id'])
        .expression(
          unnest(
            texts(column(w.growers, 'grower_id')),
            texts(column(w.growers, 'user_id')),
            texts(column(w.growers, 'cluster_id')),
            texts(column(w.growers, 'cooperative_id')),
          ),
        )
        .onConflict((oc) =>
          oc.column('grower_id').doUpdateSet({
            user_id: (eb) => eb.ref('excluded.user_id'),
            cluster_id: (eb) => eb.ref('excluded.cluster_id'),
            cooperative_id: (eb) => eb.ref('excluded.cooperative_id'),
          }),
        ),
    )
    .with('w_contracts', (db) =>
      db
        .insertInto('dashboard_contracts')
        .columns([
          'contract_id',
          'family',
          'aggregator_user_id',
          'grower_id',
          'day',
          'status',
          'quantity_kg',
          'amount',
          'delivered_kg',
        ])
        .expression(
          unnest(
            texts(column(w.contracts, 'contract_id')),
            texts(column(w.contracts, 'family')),
            texts(column(w.contracts, 'aggregator_user_id')),
            texts(column(w.contracts, 'grower_id')),
            texts(column(w.contracts, 'day')),
            texts(column(w.contracts, 'status')),
            bigints(column(w.contracts, 'quantity_kg')),
            bigints(column(w.contracts, 'amount')),
            bigints(column(w.contracts, 'delivered_kg')),
          ),
        )
        .onConflict((oc) =>
          oc.column('contract_id').doUpdateSet({
            status: (eb) => eb.ref('excluded.status'),
            delivered_kg: (eb) => eb.ref('excluded.delivered_kg'),
          }),
        ),
    )
    .with('w_debts', (db) =>
      db
        .insertInto('dashboard_debts')
        .columns([
          'debt_id',
          'kind',
          'creditor_user_id',
          'grower_id',
          'principal',
          'recovered',
          'opened_day',
        ])
        .expression(
          unnest(
            texts(column(w.debts, 'debt_id')),
            texts(column(w.debts, 'kind')),
            texts(column(w.debts, 'creditor_user_id')),
            texts(column(w.debts, 'grower_id')),
            bigints(column(w.debts, 'principal')),
            bigints(column(w.debts, 'recovered')),
            texts(column(w.debts, 'opened_day')),
          ),
        )
        .onConflict((oc) =>
          oc.column('debt_id').doUpdateSet({ recovered: (eb) => eb.ref('excluded.recovered') }),
        ),
    )
    .with('w_daily', (db) =>
      db
        .insertInto('dashboard_daily')
        .columns([
          'owner_id',
          'family',
          'day',
          'status',
          'contracts',
          'quantity_kg',
          'amount',
          'delivered_kg',
        ])
        .expression(
          unnest(
            texts(column(w.daily, 'owner_id')),
            texts(column(w.daily, 'family')),
            texts(column(w.daily, 'day')),
            texts(column(w.daily, 'status')),
            ints(column(w.daily, 'contracts')),
            bigints(column(w.daily, 'quantity_kg')),
            bigints(column(w.daily, 'amount')),
            bigints(column(w.daily, 'delivered_kg')),
          ),
        )
        .onConflict((oc) =>
          oc
            .columns(['owner_id', 'family', 'day', 'status'])
            .doUpdateSet(
              added('dashboard_daily', ['contracts', 'quantity_kg', 'amount', 'delivered_kg']),
            ),
        ),
    )
    .with('w_purchases', (db) =>
      db
        .insertInto('dashboard_purchases')
        .columns(['side', 'owner_id', 'day', 'contracts', 'delivered_kg', 'paid', 'grower_net'])
        .expression(
          unnest(
            texts(column(w.purchases, 'side')),
            texts(column(w.purchases, 'owner_id')),
            texts(column(w.purchases, 'day')),
            ints(column(w.purchases, 'contracts')),
            bigints(column(w.purchases, 'delivered_kg')),
            bigints(column(w.purchases, 'paid')),
            bigints(column(w.purchases, 'grower_net')),
          ),
        )
        .onConflict((oc) =>
          oc
            .columns(['side', 'owner_id', 'day'])
            .doUpdateSet(
              added('dashboard_purchases', ['contracts', 'delivered_kg', 'paid', 'grower_net']),
            ),
        ),
    )
    .with('w_debt_daily', (db) =>
      db
        .insertInto('dashboard_debt_daily')
        .columns([
          'grower_id',
          'creditor_user_id',
          'kind',
          'day',
          'opened',
          'opened_count',
          'recovered',
        ])
        .expression(
          unnest(
            texts(column(w.debtDaily, 'grower_id')),
            texts(column(w.debtDaily, 'creditor_user_id')),
            texts(column(w.debtDaily, 'kind')),
            texts(column(w.debtDaily, 'day')),
            bigints(column(w.debtDaily, 'opened')),
            ints(column(w.debtDaily, 'opened_count')),
            bigints(column(w.debtDaily, 'recovered')),
          ),
        )
        .onConflict((oc) =>
          oc
            .columns(['grower_id', 'creditor_user_id', 'kind', 'day'])
            .doUpdateSet(added('dashboard_debt_daily', ['opened', 'opened_count', 'recovered'])),
        ),
    )
    .with('w_debt_opened', (db) =>
      db
        .insertInto('dashboard_debt_opened')
        .columns(['creditor_user_id', 'kind', 'opened_day', 'debts', 'principal', 'recovered'])
        .expression(
          unnest(
            texts(column(w.debtOpened, 'creditor_user_id')),
            texts(column(w.debtOpened, 'kind')),
            texts(column(w.debtOpened, 'opened_day')),
            ints(column(w.debtOpened, 'debts')),
            bigints(column(w.debtOpened, 'principal')),
            bigints(column(w.debtOpened, 'recovered')),
          ),
        )
        .onConflict((oc) =>
          oc
            .columns(['creditor_user_id', 'kind', 'opened_day'])
            .doUpdateSet(added('dashboard_debt_opened', ['debts', 'principal', 'recovered'])),
        ),
    )
    .with('w_rollup', (db) => writeRollup(db as unknown as QueryCreator<Tables>, w.rollup))
    .with('w_links', (db) =>
      db
        .insertInto('dashboard_aggregator_growers')
        .columns(['aggregator_user_id', 'grower_id'])
        .expression(
          unnest(texts(column(w.links, 'aggregator_user_id')), texts(column(w.links, 'grower_id'))),
        )
        .onConflict((oc) => oc.columns(['aggregator_user_id', 'grower_id']).doNothing())
        .returning(['aggregator_user_id', 'grower_id']),
    )
    .selectFrom(
      sql<{ k: 'L' | 'U'; a: string; b: string | null }>`(
        select 'L' as k, aggregator_user_id as a, grower_id as b from w_links
        ${to ? sql`union all ${watchers(to)}` : sql``}
      )`.as('written'),
    )
    .selectAll()
    .execute();
  const links: Link[] = [];
  const staff: string[] = [];
  for (const r of rows) {
    if (r.k === 'L') links.push({ aggregator_user_id: r.a, grower_id: r.b! });
    else staff.push(r.a);
  }
  return { links, staff };
}

/** Adds `rows` to dashboard_debt_rollup (one array per column). */
function writeRollup(db: QueryCreator<Tables>, rows: Rollup[]) {
  return db
    .insertInto('dashboard_debt_rollup')
    .columns(['scope', 'scope_id', 'day', 'kind', 'opened', 'recovered'])
    .expression(
      unnest(
        texts(column(rows, 'scope')),
        texts(column(rows, 'scope_id')),
        texts(column(rows, 'day')),
        texts(column(rows, 'kind')),
        bigints(column(rows, 'opened')),
        bigints(column(rows, 'recovered')),
      ),
    )
    .onConflict((oc) =>
      oc
        .columns(['scope', 'scope_id', 'day', 'kind'])
        .doUpdateSet(added('dashboard_debt_rollup', ['opened', 'recovered'])),
    );
}

/** Writes the batch; answers the users its push reaches (none when nothing changed for anyone). */
async function flush(trx: Kysely<Tables>, batch: Batch): Promise<string[]> {
  const w: Writes = {
    growers: pick(batch.growers, batch.touched.growers),
    contracts: pick(batch.contracts, batch.touched.contracts),
    debts: pick(batch.debts, batch.touchedDebts),
    daily: [...batch.daily.values()],
    purchases: [...batch.purchases.values()],
    debtDaily: [...batch.debtDaily.values()],
    debtOpened: [...batch.debtOpened.values()],
    rollup: rollupDeltas(batch),
    links: [...batch.links.values()],
  };
  // Every figure someone sees (an aggregator's, a creditor's, a grower's) is a row written.
  if (Object.values(w).every((rows: unknown[]) => rows.length === 0)) return [];
  const to = recipients(batch);
  const { links, staff } = await write(trx, w, to);
  if (links.length) await addHistory(trx, links);
  if (!to) return [];
  for (const id of staff) to.users.add(id);
  return [...to.users].sort();
}

/** Each newly linked aggregator takes its grower's whole debt_daily (this batch's included). */
async function addHistory(trx: Kysely<Tables>, newLinks: Link[]) {
  const newlyLinked = new Map<string, string[]>();
  for (const l of newLinks) {
    const linked = newlyLinked.get(l.grower_id);
    if (linked) linked.push(l.aggregator_user_id);
    else newlyLinked.set(l.grower_id, [l.aggregator_user_id]);
  }
  const history = await trx
    .selectFrom('dashboard_debt_daily')
    .select(['grower_id', 'day', 'kind', 'opened', 'recovered'])
    .where('grower_id', '=', anyText([...newlyLinked.keys()]))
    .execute();
  if (!history.length) return;
  const rollup = new Rollups();
  for (const h of history) {
    for (const aggregator of newlyLinked.get(h.grower_id)!) {
      rollup.add('AGGREGATOR', aggregator, h.day, h.kind, h.opened, h.recovered);
    }
  }
  await writeRollup(trx, [...rollup.rows.values()]).execute();
}

/**
 * Whose dashboard changed: the aggregators and creditors (SFD, aggregator) concerned, the
 * growers' users and their cooperatives' representatives, the cluster managers of the
 * growers' and aggregators' clusters, and every super admin and admin (their dashboard sums
 * everything). The growers are the batch's (loaded before its writes, changed by its events);
 * the staff are read from identity's live tables by `watchers`, in the batch's write.
 */
interface Recipients {
  users: Set<string>;
  staff: string[];
  clusters: string[];
  cooperatives: string[];
}

function recipients(batch: Batch): Recipients | undefined {
  if (!batch.aggregators.size && !batch.creditors.size && !batch.growerIds.size) return undefined;
  const staff = [...batch.aggregators, ...batch.creditors];
  const users = new Set<string>(staff);
  const clusters = new Set<string>();
  const cooperatives = new Set<string>();
  for (const id of batch.growerIds) {
    const g = batch.growers.get(id);
    if (!g) continue;
    users.add(g.user_id);
    if (g.cluster_id) clusters.add(g.cluster_id);
    if (g.cooperative_id) cooperatives.add(g.cooperative_id);
  }
  return { users, staff, clusters: [...clusters], cooperatives: [...cooperatives] };
}

/**
 * The active staff the push reaches: super admins and admins, the cluster managers of the
 * growers' clusters and of the batch's aggregators' and creditors' (identity's `users.cluster_id`
 * now), the FARMER_ORGANIZATION users of the growers' cooperatives. Identity's LIVE tables,
 * named `public.` (whatever schema a replay writes to, as `withSchema('public')` read them): it
 * only addresses pushes, never the read tables. It starts from the four roles' rows
 * (`roles.code`, then `users_role_idx`), not from every user: with the role test OR-ed with the
 * clusters' and cooperatives', PostgreSQL scanned all users (7 ms a batch at 10,000 growers).
 */
function watchers(r: Recipients) {
  const { SUPER_ADMIN, ADMIN, CLUSTER_MANAGER, FARMER_ORGANIZATION } = ROLE;
  return sql`select 'U' as k, u.id::text as a, null::text as b
    from public.roles r join ${identityUsers('public').as('u')} on u.role_id = r.id
    where r.code in (${SUPER_ADMIN}, ${ADMIN}, ${CLUSTER_MANAGER}, ${FARMER_ORGANIZATION})
      and u.deleted_at is null and u.is_active
      and (r.code in (${SUPER_ADMIN}, ${ADMIN})
        or (r.code = ${CLUSTER_MANAGER} and (u.cluster_id = ${anyUuid(r.clusters)}
          or u.cluster_id in (select s.cluster_id from ${identityUsers('public').as('s')}
            where s.id = ${anyUuid(r.staff)} and s.cluster_id is not null)))
        or (r.code = ${FARMER_ORGANIZATION} and u.organization_id = ${anyUuid(r.cooperatives)}))`;
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
    const userIds = await flush(trx, batch);
    if (userIds.length) ctx.push(dashboardPush({ type: 'reporting.dashboard', userIds }));
  },
});
