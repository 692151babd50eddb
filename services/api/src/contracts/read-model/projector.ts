import { sql, type Kysely } from 'kysely';
import {
  type Projector,
  type PushMessage,
  type RecordedEvent,
  anyText,
  bigints,
  booleans,
  column,
  dates,
  instants,
  texts,
  uuids,
} from '@filiere/projections';
import type { ContractEvent, ContractEventType } from '../domain/index.js';
import type { ContractsTables } from '../tables.js';
import { contractsPush } from '../pushes.js';

const EVENT_TYPES: ContractEventType[] = [
  'DeliveryContractCreated',
  'DeliveryContractConfirmed',
  'DeliveryRecorded',
  'DeliveryContractOutOfTime',
  'DeliveryContractCanceled',
  'DeliveryContractSettled',
  'DebtOpened',
  'DebtRecovered',
];

type Data<T extends ContractEventType> = Extract<ContractEvent, { type: T }>['data'];

/** A delivery_contracts row created by the batch (instants as ISO text). */
interface NewContract {
  id: string;
  reference: string;
  parent_id: string | null | undefined;
  aggregator_user_id: string;
  grower_id: string;
  grower_user_id: string;
  plot_id: string;
  product_type: string | null | undefined;
  quantity_kg: number;
  amount: number;
  delivery_date: string;
  status: string;
  delivered_kg: number | null | undefined;
  delivered_on: string | null | undefined;
  delivered_amount: number | null | undefined;
  recovered_amount: number | null | undefined;
  grower_net: number | null | undefined;
  created_at: string;
  updated_at: string;
}

/**
 * What the batch's events set on a contract row that exists before it: every transition sets
 * the status and `updated_at`; a delivery its kg and day, a settlement its three amounts. A
 * field an event leaves undefined is not set, as the per-event update (Kysely skips undefined
 * values) left it.
 */
interface Patch {
  id: string;
  status: string;
  updated_at: string;
  delivered_kg?: number | null;
  delivered_on?: string | null;
  delivered_amount?: number | null;
  recovered_amount?: number | null;
  grower_net?: number | null;
}

type Fields = Omit<Patch, 'id'>;

/** A grower_debts row opened by the batch, with what the batch recovered of it since. */
interface NewDebt {
  id: string;
  kind: string;
  creditor_user_id: string;
  debtor_grower_id: string;
  principal: number;
  recovered: number;
  opened_at: string;
}

const instant = (at: Date | string): string => (at instanceof Date ? at.toISOString() : at);

const FIELDS = [
  'status',
  'updated_at',
  'delivered_kg',
  'delivered_on',
  'delivered_amount',
  'recovered_amount',
  'grower_net',
] as const;

/** Sets the defined fields of `fields` on `row` (a field left undefined is not written). */
function assign(row: Fields | NewContract, fields: Fields) {
  const target = row as Record<string, unknown>;
  for (const key of FIELDS) {
    const value = fields[key];
    if (value !== undefined) target[key] = value;
  }
}

/**
 * A batch folded in memory in the log's order, written in ONE statement: the rows that exist
 * before the batch take their events' last values (`update … from unnest(…)`; the recoveries
 * of a debt add up, sums commute), and the rows the batch creates are inserted as its later
 * events left them. An event for a row the batch has not created goes to the update — which
 * changes nothing when the row does not exist, as the per-event update did — even when the
 * batch creates that row afterwards: the statement's update cannot see the rows its own insert
 * adds (one snapshot), and a row created twice fails on its key as before.
 */
class Batch {
  created = new Map<string, NewContract>();
  patches = new Map<string, Patch>();
  opened = new Map<string, NewDebt>();
  recovered = new Map<string, number>();
  /** Contracts changed, in the order of their first event (pushes). */
  changed = new Set<string>();

  change(contractId: string, at: Date | string, fields: Omit<Fields, 'updated_at'>) {
    this.changed.add(contractId);
    const all: Fields = { ...fields, updated_at: instant(at) };
    const row = this.created.get(contractId);
    if (row) {
      assign(row, all);
      return;
    }
    const patch = this.patches.get(contractId);
    if (patch) assign(patch, all);
    else this.patches.set(contractId, { id: contractId, ...all });
  }

  apply(recorded: RecordedEvent) {
    const at = recorded.recordedAt;
    switch (recorded.type as ContractEventType) {
      case 'DeliveryContractCreated': {
        const d = recorded.data as Data<'DeliveryContractCreated'>;
        this.changed.add(d.contractId);
        if (this.created.has(d.contractId)) {
          // The per-event insert failed on the duplicate key.
          throw new Error(`delivery contract ${d.contractId} created twice in one batch`);
        }
        this.created.set(d.contractId, {
          id: d.contractId,
          reference: d.reference,
          parent_id: d.parentId,
          aggregator_user_id: d.aggregatorUserId,
          grower_id: d.growerId,
          grower_user_id: d.growerUserId,
          plot_id: d.plotId,
          product_type: d.productType,
          quantity_kg: d.quantityKg,
          amount: d.amount,
          delivery_date: d.deliveryDate,
          status: 'PENDING',
          delivered_kg: null,
          delivered_on: null,
          delivered_amount: null,
          recovered_amount: null,
          grower_net: null,
          created_at: instant(at),
          updated_at: instant(at),
        });
        break;
      }
      case 'DeliveryContractConfirmed': {
        const d = recorded.data as Data<'DeliveryContractConfirmed'>;
        this.change(d.contractId, at, { status: 'CONFIRMED' });
        break;
      }
      case 'DeliveryRecorded': {
        const d = recorded.data as Data<'DeliveryRecorded'>;
        this.change(d.contractId, at, {
          status: 'DELIVERED',
          delivered_kg: d.deliveredKg,
          delivered_on: d.deliveredOn,
        });
        break;
      }
      case 'DeliveryContractOutOfTime': {
        const d = recorded.data as Data<'DeliveryContractOutOfTime'>;
        this.change(d.contractId, at, { status: 'OUTTIME' });
        break;
      }
      case 'DeliveryContractCanceled': {
        const d = recorded.data as Data<'DeliveryContractCanceled'>;
        this.change(d.contractId, at, { status: 'CANCELED' });
        break;
      }
      case 'DeliveryContractSettled': {
        const d = recorded.data as Data<'DeliveryContractSettled'>;
        this.change(d.contractId, at, {
          status: 'COMPLETED',
          delivered_amount: d.payableAmount,
          recovered_amount: d.recoveries.reduce((sum, r) => sum + r.amount, 0),
          grower_net: d.growerNet,
        });
        break;
      }
      case 'DebtOpened': {
        const d = recorded.data as Data<'DebtOpened'>;
        if (this.opened.has(d.debtId)) {
          throw new Error(`debt ${d.debtId} opened twice in one batch`);
        }
        this.opened.set(d.debtId, {
          id: d.debtId,
          kind: d.kind,
          creditor_user_id: d.creditorUserId,
          debtor_grower_id: d.debtorGrowerId,
          principal: d.principal,
          recovered: 0,
          opened_at: d.openedAt,
        });
        break;
      }
      case 'DebtRecovered': {
        const d = recorded.data as Data<'DebtRecovered'>;
        const row = this.opened.get(d.debtId);
        if (row) row.recovered += d.amount;
        else this.recovered.set(d.debtId, (this.recovered.get(d.debtId) ?? 0) + d.amount);
        break;
      }
    }
  }
}

/**
 * What the write answers, as the tables hold them (ids as PostgreSQL writes uuids): every
 * contract row it updated or inserted (C) and the creditor of every debt (D), for the pushes.
 */
interface Written {
  k: 'C' | 'D';
  id: string;
  status: string | null;
  aggregator_user_id: string | null;
  grower_user_id: string | null;
}

/**
 * The batch's writes in one statement of data-modifying CTEs, each of one array per column:
 * the updates of existing contracts and debts (their rows come back for the pushes) and the
 * inserts of the new ones. The tables are named through the query builder (the live or a
 * replay's schema; the first batching, e5bd7ed, wrote with raw SQL naming them and a replay
 * recovered the live debts a second time); the unnests name none. `id = any(…)` beside the
 * join lets PostgreSQL fetch the rows by key instead of hashing the whole table each batch.
 */
async function write(trx: Kysely<ContractsTables>, batch: Batch): Promise<Written[]> {
  const patches = [...batch.patches.values()];
  const created = [...batch.created.values()];
  const recovered = [...batch.recovered.keys()];
  const opened = [...batch.opened.values()];
  const ids = column(patches, 'id');
  const set = <K extends keyof Patch>(key: K) => booleans(patches.map((p) => p[key] !== undefined));
  const patchRows = sql<{
    id: string;
    status: string;
    updated_at: Date;
    delivered_kg: number | null;
    delivered_on: string | null;
    delivered_amount: number | null;
    recovered_amount: number | null;
    grower_net: number | null;
    set_kg: boolean;
    set_on: boolean;
    set_amount: boolean;
    set_recovered: boolean;
    set_net: boolean;
  }>`(select * from unnest(
      ${texts(ids)}, ${texts(column(patches, 'status'))},
      ${instants(column(patches, 'updated_at'))},
      ${bigints(column(patches, 'delivered_kg'))}, ${dates(column(patches, 'delivered_on'))},
      ${bigints(column(patches, 'delivered_amount'))},
      ${bigints(column(patches, 'recovered_amount'))}, ${bigints(column(patches, 'grower_net'))},
      ${set('delivered_kg')}, ${set('delivered_on')}, ${set('delivered_amount')},
      ${set('recovered_amount')}, ${set('grower_net')}
    ) as t(id, status, updated_at, delivered_kg, delivered_on, delivered_amount,
      recovered_amount, grower_net, set_kg, set_on, set_amount, set_recovered, set_net))`;
  const recoveries = sql<{ id: string; amount: number }>`(select * from unnest(
      ${texts(recovered)}, ${bigints(recovered.map((id) => batch.recovered.get(id)!))}
    ) as t(id, amount))`;
  const kept = <T>(flag: string, value: string, current: string) =>
    sql<T>`case when ${sql.ref(flag)} then ${sql.ref(value)} else ${sql.ref(current)} end`;
  return trx
    .with('updated_contracts', (db) =>
      db
        .updateTable('delivery_contracts')
        .from(patchRows.as('v'))
        .set({
          status: sql`v.status`,
          updated_at: sql`v.updated_at`,
          delivered_kg: kept('v.set_kg', 'v.delivered_kg', 'delivery_contracts.delivered_kg'),
          delivered_on: kept('v.set_on', 'v.delivered_on', 'delivery_contracts.delivered_on'),
          delivered_amount: kept(
            'v.set_amount',
            'v.delivered_amount',
            'delivery_contracts.delivered_amount',
          ),
          recovered_amount: kept(
            'v.set_recovered',
            'v.recovered_amount',
            'delivery_contracts.recovered_amount',
          ),
          grower_net: kept('v.set_net', 'v.grower_net', 'delivery_contracts.grower_net'),
        })
        .whereRef('delivery_contracts.id', '=', 'v.id')
        .where('delivery_contracts.id', '=', anyText(ids))
        .returning([
          'delivery_contracts.id',
          'delivery_contracts.status',
          'delivery_contracts.aggregator_user_id',
          'delivery_contracts.grower_user_id',
        ]),
    )
    .with('updated_debts', (db) =>
      db
        .updateTable('grower_debts')
        .from(recoveries.as('v'))
        .set((eb) => ({
          recovered: eb(eb.ref('grower_debts.recovered'), '+', eb.ref('v.amount')),
        }))
        .whereRef('grower_debts.id', '=', 'v.id')
        .where('grower_debts.id', '=', anyText(recovered))
        .returning(['grower_debts.creditor_user_id']),
    )
    .with('inserted_contracts', (db) =>
      db
        .insertInto('delivery_contracts')
        .columns([
          'id',
          'reference',
          'parent_id',
          'aggregator_user_id',
          'grower_id',
          'grower_user_id',
          'plot_id',
          'product_type',
          'quantity_kg',
          'amount',
          'delivery_date',
          'status',
          'delivered_kg',
          'delivered_on',
          'delivered_amount',
          'recovered_amount',
          'grower_net',
          'created_at',
          'updated_at',
        ])
        .expression(
          sql`select * from unnest(${sql.join([
            texts(column(created, 'id')),
            texts(column(created, 'reference')),
            texts(column(created, 'parent_id')),
            uuids(column(created, 'aggregator_user_id')),
            uuids(column(created, 'grower_id')),
            uuids(column(created, 'grower_user_id')),
            uuids(column(created, 'plot_id')),
            texts(column(created, 'product_type')),
            bigints(column(created, 'quantity_kg')),
            bigints(column(created, 'amount')),
            dates(column(created, 'delivery_date')),
            texts(column(created, 'status')),
            bigints(column(created, 'delivered_kg')),
            dates(column(created, 'delivered_on')),
            bigints(column(created, 'delivered_amount')),
            bigints(column(created, 'recovered_amount')),
            bigints(column(created, 'grower_net')),
            instants(column(created, 'created_at')),
            instants(column(created, 'updated_at')),
          ])})`,
        )
        .returning(['id', 'status', 'aggregator_user_id', 'grower_user_id']),
    )
    .with('inserted_debts', (db) =>
      db
        .insertInto('grower_debts')
        .columns([
          'id',
          'kind',
          'creditor_user_id',
          'debtor_grower_id',
          'principal',
          'recovered',
          'opened_at',
        ])
        .expression(
          sql`select * from unnest(${sql.join([
            texts(column(opened, 'id')),
            texts(column(opened, 'kind')),
            uuids(column(opened, 'creditor_user_id')),
            uuids(column(opened, 'debtor_grower_id')),
            bigints(column(opened, 'principal')),
            bigints(column(opened, 'recovered')),
            instants(column(opened, 'opened_at')),
          ])})`,
        )
        .returning(['creditor_user_id']),
    )
    .selectFrom(
      sql<Written>`(
        select 'C' as k, id, status, aggregator_user_id::text, grower_user_id::text
        from updated_contracts
        union all
        select 'C', id, status, aggregator_user_id::text, grower_user_id::text
        from inserted_contracts
        union all
        select 'D', creditor_user_id::text, null, null, null from updated_debts
        union all
        select 'D', creditor_user_id::text, null, null, null from inserted_debts
      )`.as('written'),
    )
    .selectAll()
    .execute();
}

/**
 * `delivery_contracts` and `grower_debts` from the `contract-<id>` and `debt-<id>` streams.
 * A batch is folded in memory and written in one statement (`Batch`, `write`); times come
 * from the events (`recordedAt`), so a replay (ledger:rebuild/check) gives the same rows
 * whatever its batches.
 */
export const contractsProjector: Projector = {
  name: 'contracts',
  eventTypes: EVENT_TYPES,
  tables: ['delivery_contracts', 'grower_debts'],
  async apply(transaction, events: RecordedEvent[], ctx) {
    const trx = transaction as unknown as Kysely<ContractsTables>;
    const batch = new Batch();
    for (const recorded of events) batch.apply(recorded);
    const written = await write(trx, batch);
    pushChanges(batch, written, await cooperativeUsers(trx, batch, written), ctx.push);
  },
};

/**
 * The user of each grower's cooperative today (grower user → cooperative user), for the growers
 * of the contracts a batch changed, when it changed at most 100 (the pushes that name a
 * contract): the cooperative confirms for its growers and follows their contracts' pages.
 */
async function cooperativeUsers(
  trx: Kysely<ContractsTables>,
  batch: Batch,
  written: Written[],
): Promise<Map<string, string>> {
  const growers = new Set<string>();
  for (const w of written) {
    if (w.k === 'C' && w.grower_user_id && batch.changed.has(w.id)) growers.add(w.grower_user_id);
  }
  if (growers.size === 0 || batch.changed.size > 100) return new Map();
  const { rows } = await sql<{ grower: string; cooperative: string }>`
    select g.user_id::text as grower, c.user_id::text as cooperative
    from growers g
    join cooperatives c on c.organization_id = g.cooperative_id and c.deactivated_at is null
    where g.user_id = any(${[...growers]}::uuid[])`.execute(trx);
  return new Map(rows.map((r) => [r.grower, r.cooperative]));
}

/**
 * `contracts.updated` to the creditors of the debts opened or recovered (an advance's
 * 'recovered' and 'remaining', its list's open/repaid filter), without data; then
 * {contractId, status} to each changed contract's aggregator, grower and the grower's
 * cooperative's user, or, after a batch of more than 100 changed contracts (a replay, a big
 * run), one push per user without data. The rows are those the batch's write returned (as when
 * they were read back after it): a contract or debt the projection never saw gets none.
 */
function pushChanges(
  batch: Batch,
  written: Written[],
  cooperatives: Map<string, string>,
  push: (msg: PushMessage) => void,
) {
  const creditors = new Set<string>();
  const rows = new Map<string, { status: string; aggregator: string; grower: string }>();
  for (const w of written) {
    if (w.k === 'D') creditors.add(w.id);
    else {
      rows.set(w.id, {
        status: w.status!,
        aggregator: w.aggregator_user_id!,
        grower: w.grower_user_id!,
      });
    }
  }
  if (creditors.size) {
    push(contractsPush({ type: 'contracts.updated', userIds: [...creditors] }));
  }
  const changed = [...batch.changed].filter((id) => rows.has(id));
  if (!changed.length) return;
  if (changed.length <= 100) {
    for (const id of changed) {
      const r = rows.get(id)!;
      const cooperative = cooperatives.get(r.grower);
      push(
        contractsPush({
          type: 'contracts.updated',
          userIds: cooperative ? [r.aggregator, r.grower, cooperative] : [r.aggregator, r.grower],
          data: { contractId: id, status: r.status },
        }),
      );
    }
    return;
  }
  const users = new Set<string>();
  for (const id of changed) {
    const r = rows.get(id)!;
    users.add(r.aggregator);
    users.add(r.grower);
  }
  push(contractsPush({ type: 'contracts.updated', userIds: [...users] }));
}
