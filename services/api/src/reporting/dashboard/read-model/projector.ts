import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { beninDay } from '@filiere/platform';
import { defineProjector, type RecordedEvent } from '@filiere/projections';
import type { IdentityTables } from '../../../identity/index.js';
import { ROLE } from '../../../kernel/roles.js';
import { EVERYONE, type DashboardTables } from '../tables.js';
import { anyText, anyUuid, bigints, ints, texts, unnest } from '../../unnest.js';
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

/**
 * Loads the rows the batch's events touch: their contracts and debts, then the growers of all
 * of them (for the rollup's clusters and the pushes' recipients) and the aggregators already
 * linked to the growers of the debts (the rollup's AGGREGATOR scopes) — before any write of
 * the batch, so these are the links from before it.
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
  if (contractIds.size) {
    const rows = await trx
      .selectFrom('dashboard_contracts')
      .selectAll()
      .where('contract_id', '=', anyText([...contractIds]))
      .execute();
    for (const c of rows) {
      batch.contracts.set(c.contract_id, c);
      if (c.grower_id) growerIds.add(c.grower_id);
    }
  }
  if (debtIds.size) {
    const rows = await trx
      .selectFrom('dashboard_debts')
      .selectAll()
      .where('debt_id', '=', anyText([...debtIds]))
      .execute();
    for (const debt of rows) {
      batch.debts.set(debt.debt_id, debt);
      debtGrowers.add(debt.grower_id);
    }
  }
  for (const g of debtGrowers) growerIds.add(g);
  if (growerIds.size) {
    const rows = await trx
      .selectFrom('dashboard_growers')
      .selectAll()
      .where('grower_id', '=', anyText([...growerIds]))
      .execute();
    for (const g of rows) batch.growers.set(g.grower_id, g);
  }
  if (debtGrowers.size) {
    const rows = await trx
      .selectFrom('dashboard_aggregator_growers')
      .select(['aggregator_user_id', 'grower_id'])
      .where('grower_id', '=', anyText([...debtGrowers]))
      .execute();
    for (const l of rows) {
      const linked = batch.linkedBefore.get(l.grower_id);
      if (linked) linked.push(l.aggregator_user_id);
      else batch.linkedBefore.set(l.grower_id, [l.aggregator_user_id]);
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

/*
 * Every write below is one statement whatever the number of rows (`unnest` of one array per
 * column, reporting/unnest.ts), through the query builder (the live or a replay's schema).
 */
async function flush(trx: Kysely<Tables>, batch: Batch) {
  const growers = pick(batch.growers, batch.touched.growers);
  if (growers.length) {
    await trx
      .insertInto('dashboard_growers')
      .columns(['grower_id', 'user_id', 'cluster_id', 'cooperative_id'])
      .expression(
        unnest(
          texts(column(growers, 'grower_id')),
          texts(column(growers, 'user_id')),
          texts(column(growers, 'cluster_id')),
          texts(column(growers, 'cooperative_id')),
        ),
      )
      .onConflict((oc) =>
        oc.column('grower_id').doUpdateSet({
          user_id: (eb) => eb.ref('excluded.user_id'),
          cluster_id: (eb) => eb.ref('excluded.cluster_id'),
          cooperative_id: (eb) => eb.ref('excluded.cooperative_id'),
        }),
      )
      .execute();
  }
  const contracts = pick(batch.contracts, batch.touched.contracts);
  if (contracts.length) {
    await trx
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
          texts(column(contracts, 'contract_id')),
          texts(column(contracts, 'family')),
          texts(column(contracts, 'aggregator_user_id')),
          texts(column(contracts, 'grower_id')),
          texts(column(contracts, 'day')),
          texts(column(contracts, 'status')),
          bigints(column(contracts, 'quantity_kg')),
          bigints(column(contracts, 'amount')),
          bigints(column(contracts, 'delivered_kg')),
        ),
      )
      .onConflict((oc) =>
        oc.column('contract_id').doUpdateSet({
          status: (eb) => eb.ref('excluded.status'),
          delivered_kg: (eb) => eb.ref('excluded.delivered_kg'),
        }),
      )
      .execute();
  }
  const debts = pick(batch.debts, batch.touchedDebts);
  if (debts.length) {
    await trx
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
          texts(column(debts, 'debt_id')),
          texts(column(debts, 'kind')),
          texts(column(debts, 'creditor_user_id')),
          texts(column(debts, 'grower_id')),
          bigints(column(debts, 'principal')),
          bigints(column(debts, 'recovered')),
          texts(column(debts, 'opened_day')),
        ),
      )
      .onConflict((oc) =>
        oc.column('debt_id').doUpdateSet({ recovered: (eb) => eb.ref('excluded.recovered') }),
      )
      .execute();
  }
  const daily = [...batch.daily.values()];
  if (daily.length) {
    await trx
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
          texts(column(daily, 'owner_id')),
          texts(column(daily, 'family')),
          texts(column(daily, 'day')),
          texts(column(daily, 'status')),
          ints(column(daily, 'contracts')),
          bigints(column(daily, 'quantity_kg')),
          bigints(column(daily, 'amount')),
          bigints(column(daily, 'delivered_kg')),
        ),
      )
      .onConflict((oc) =>
        oc
          .columns(['owner_id', 'family', 'day', 'status'])
          .doUpdateSet(
            added('dashboard_daily', ['contracts', 'quantity_kg', 'amount', 'delivered_kg']),
          ),
      )
      .execute();
  }
  const purchases = [...batch.purchases.values()];
  if (purchases.length) {
    await trx
      .insertInto('dashboard_purchases')
      .columns(['side', 'owner_id', 'day', 'contracts', 'delivered_kg', 'paid', 'grower_net'])
      .expression(
        unnest(
          texts(column(purchases, 'side')),
          texts(column(purchases, 'owner_id')),
          texts(column(purchases, 'day')),
          ints(column(purchases, 'contracts')),
          bigints(column(purchases, 'delivered_kg')),
          bigints(column(purchases, 'paid')),
          bigints(column(purchases, 'grower_net')),
        ),
      )
      .onConflict((oc) =>
        oc
          .columns(['side', 'owner_id', 'day'])
          .doUpdateSet(
            added('dashboard_purchases', ['contracts', 'delivered_kg', 'paid', 'grower_net']),
          ),
      )
      .execute();
  }
  const debtDaily = [...batch.debtDaily.values()];
  if (debtDaily.length) {
    await trx
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
          texts(column(debtDaily, 'grower_id')),
          texts(column(debtDaily, 'creditor_user_id')),
          texts(column(debtDaily, 'kind')),
          texts(column(debtDaily, 'day')),
          bigints(column(debtDaily, 'opened')),
          ints(column(debtDaily, 'opened_count')),
          bigints(column(debtDaily, 'recovered')),
        ),
      )
      .onConflict((oc) =>
        oc
          .columns(['grower_id', 'creditor_user_id', 'kind', 'day'])
          .doUpdateSet(added('dashboard_debt_daily', ['opened', 'opened_count', 'recovered'])),
      )
      .execute();
  }
  const debtOpened = [...batch.debtOpened.values()];
  if (debtOpened.length) {
    await trx
      .insertInto('dashboard_debt_opened')
      .columns(['creditor_user_id', 'kind', 'opened_day', 'debts', 'principal', 'recovered'])
      .expression(
        unnest(
          texts(column(debtOpened, 'creditor_user_id')),
          texts(column(debtOpened, 'kind')),
          texts(column(debtOpened, 'opened_day')),
          ints(column(debtOpened, 'debts')),
          bigints(column(debtOpened, 'principal')),
          bigints(column(debtOpened, 'recovered')),
        ),
      )
      .onConflict((oc) =>
        oc
          .columns(['creditor_user_id', 'kind', 'opened_day'])
          .doUpdateSet(added('dashboard_debt_opened', ['debts', 'principal', 'recovered'])),
      )
      .execute();
  }
  const links = [...batch.links.values()];
  const newLinks = links.length
    ? await trx
        .insertInto('dashboard_aggregator_growers')
        .columns(['aggregator_user_id', 'grower_id'])
        .expression(
          unnest(texts(column(links, 'aggregator_user_id')), texts(column(links, 'grower_id'))),
        )
        .onConflict((oc) => oc.columns(['aggregator_user_id', 'grower_id']).doNothing())
        .returning(['aggregator_user_id', 'grower_id'])
        .execute()
    : [];
  await flushRollup(trx, batch, newLinks);
}

/**
 * dashboard_debt_rollup (migrations/20261128_0100_dashboard_debt_rollup.ts): each row is the
 * sum of its scope's growers' dashboard_debt_daily rows at that day and kind — ALL, the
 * grower's cluster, and every aggregator linked to the grower. Per batch: the batch's
 * debt_daily deltas go to ALL, to the grower's cluster and to the aggregators linked BEFORE
 * the batch (`batch.linkedBefore`, read before its writes); an aggregator newly linked in the
 * batch (`newLinks`, the rows the link insert actually added) takes the grower's whole
 * debt_daily (already including this batch's deltas). So the rows depend only on the events,
 * not on how they were batched, and a rebuild gives the same table (every key touched is
 * written, as for the other day tables).
 */
async function flushRollup(trx: Kysely<Tables>, batch: Batch, newLinks: Link[]) {
  if (!batch.debtDaily.size && !newLinks.length) return;
  const rollup = new Map<string, Rollup>();
  const add = (
    scope: Rollup['scope'],
    scopeId: string,
    day: string,
    kind: string,
    opened: number,
    recovered: number,
  ) => {
    const key = scope + SEP + scopeId + SEP + day + SEP + kind;
    let r = rollup.get(key);
    if (!r) {
      r = { scope, scope_id: scopeId, day, kind, opened: 0, recovered: 0 };
      rollup.set(key, r);
    }
    r.opened += opened;
    r.recovered += recovered;
  };
  for (const d of batch.debtDaily.values()) {
    add('ALL', '', d.day, d.kind, d.opened, d.recovered);
    const cluster = batch.growers.get(d.grower_id)?.cluster_id;
    if (cluster) add('CLUSTER', cluster, d.day, d.kind, d.opened, d.recovered);
    for (const aggregator of batch.linkedBefore.get(d.grower_id) ?? []) {
      add('AGGREGATOR', aggregator, d.day, d.kind, d.opened, d.recovered);
    }
  }
  const newlyLinked = new Map<string, string[]>();
  for (const l of newLinks) {
    const linked = newlyLinked.get(l.grower_id);
    if (linked) linked.push(l.aggregator_user_id);
    else newlyLinked.set(l.grower_id, [l.aggregator_user_id]);
  }
  if (newlyLinked.size) {
    const history = await trx
      .selectFrom('dashboard_debt_daily')
      .select(['grower_id', 'day', 'kind', 'opened', 'recovered'])
      .where('grower_id', '=', anyText([...newlyLinked.keys()]))
      .execute();
    for (const h of history) {
      for (const aggregator of newlyLinked.get(h.grower_id)!) {
        add('AGGREGATOR', aggregator, h.day, h.kind, h.opened, h.recovered);
      }
    }
  }
  const rows = [...rollup.values()];
  if (!rows.length) return;
  await trx
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
    )
    .execute();
}

/**
 * Whose dashboard changed: the aggregators and creditors (SFD, aggregator) concerned, the
 * growers' users and their cooperatives' representatives, the cluster managers of the
 * growers' and aggregators' clusters, and every super admin and admin (their dashboard sums
 * everything). The growers are the batch's (loaded before its writes, changed by its events);
 * staff are read from identity's live `users` table (`public`, whatever schema a rebuild
 * writes to) in one statement: it only addresses pushes, never the read tables. It starts
 * from the four roles' rows (`roles.code`, then `users_role_idx`), not from every user: the
 * OR over roles and clusters otherwise made PostgreSQL scan all users (7 ms at 10,000
 * growers, per batch).
 */
async function recipients(trx: Kysely<Tables>, batch: Batch): Promise<string[]> {
  if (!batch.aggregators.size && !batch.creditors.size && !batch.growerIds.size) return [];
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
  const watchers = await trx
    .withSchema('public')
    .selectFrom('roles as r')
    .innerJoin('users as u', 'u.role_id', 'r.id')
    .select('u.id')
    .where('r.code', 'in', [
      ROLE.SUPER_ADMIN,
      ROLE.ADMIN,
      ROLE.CLUSTER_MANAGER,
      ROLE.FARMER_ORGANIZATION,
    ])
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .where((eb) =>
      eb.or([
        eb('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN]),
        eb.and([
          eb('r.code', '=', ROLE.CLUSTER_MANAGER),
          eb.or([
            eb('u.cluster_id', '=', anyUuid([...clusters])),
            // The clusters of the batch's aggregators and creditors (identity's, now).
            eb(
              'u.cluster_id',
              'in',
              eb
                .selectFrom('users as s')
                .select('s.cluster_id')
                .where('s.id', '=', anyUuid(staff))
                .where('s.cluster_id', 'is not', null),
            ),
          ]),
        ]),
        eb.and([
          eb('r.code', '=', ROLE.FARMER_ORGANIZATION),
          eb('u.organization_id', '=', anyUuid([...cooperatives])),
        ]),
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
