import { sql, type Kysely, type Selectable } from 'kysely';
import type { EventStore } from '@filiere/event-store';
import { advanceReferenceSql } from '../kernel/references.js';
import type { ActorsTables } from '../actors/index.js';
import type { IdentityTables } from '../identity/index.js';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { SignedInUser } from '../kernel/actor.js';
import { ROLE } from '../kernel/roles.js';
import {
  contractStream,
  contractStreamId,
  breakdownOf,
  kgToTonnes,
  MAX_WRONG_CODES,
  type ContractEvent,
  type ContractStatus,
  type SettlementBreakdown,
} from './domain/index.js';
import type { ContractsTables } from './tables.js';
import { identityUsers, maskNumber } from '../identity/index.js';

/**
 * The list filters of §2.5 → statuses (decisions.md); `delivered` (DELIVERED, 'Livraison
 * disponible') finds the contracts ready to run.
 */
export const CONTRACT_FILTERS = {
  all: null,
  waiting: 'PENDING',
  ready: 'CONFIRMED',
  delivered: 'DELIVERED',
  executed: 'COMPLETED',
  outtime: 'OUTTIME',
} as const satisfies Record<string, ContractStatus | null>;
export type ContractFilter = keyof typeof CONTRACT_FILTERS;

const seesAll = (user: SignedInUser) =>
  user.role_code === ROLE.SUPER_ADMIN || user.role_code === ROLE.ADMIN;

export interface DeliveryContractRow {
  id: string;
  reference: string;
  parentId: string | null;
  aggregatorUserId: string;
  growerId: string;
  plotId: string;
  productType: string | null;
  /** Tonnes as text ('2.5'): kg are integers, shown in tonnes. */
  quantity: string;
  amount: number;
  deliveryDate: string;
  status: string;
  deliveredQuantity: string | null;
  deliveredOn: string | null;
  deliveredAmount: number | null;
  recoveredAmount: number | null;
  growerNet: number | null;
  createdAt: string;
  /** The grower's names (its user). */
  grower: { id: string; firstname: string; lastname: string } | null;
}

/** The contract page: its row, a run's breakdown, the grower's consent or the code awaited. */
export type ContractDetail = DeliveryContractRow & {
  breakdown: SettlementBreakdown | null;
  acceptance: {
    method: 'CODE' | 'GROWER_SIGNED_IN';
    acceptedAt: string;
    acceptedBy: { id: string; firstname: string; lastname: string };
    /** The phone the code went to, masked (••••1234). */
    phone: string | null;
  } | null;
  acceptanceCode: { phone: string; issuedAt: string; locked: boolean } | null;
};

type Row = Selectable<ContractsTables['delivery_contracts']>;

/**
 * A DATE column as the pool reads it — a Date at the process's local midnight, not a string
 * (`String(date).slice(0, 10)` gave 'Thu Apr 22') — as the API's 'YYYY-MM-DD'.
 */
export function isoDay(value: unknown): string {
  if (value instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  return String(value).slice(0, 10);
}

type GrowerNames = { grower_firstname: string | null; grower_lastname: string | null };

function toRow(r: Row & GrowerNames): DeliveryContractRow {
  return {
    id: r.id,
    reference: r.reference,
    parentId: r.parent_id,
    aggregatorUserId: r.aggregator_user_id,
    growerId: r.grower_id,
    plotId: r.plot_id,
    productType: r.product_type,
    quantity: kgToTonnes(Number(r.quantity_kg)),
    amount: Number(r.amount),
    deliveryDate: isoDay(r.delivery_date),
    status: r.status,
    deliveredQuantity: r.delivered_kg === null ? null : kgToTonnes(Number(r.delivered_kg)),
    deliveredOn: r.delivered_on === null ? null : isoDay(r.delivered_on),
    deliveredAmount: r.delivered_amount === null ? null : Number(r.delivered_amount),
    recoveredAmount: r.recovered_amount === null ? null : Number(r.recovered_amount),
    growerNet: r.grower_net === null ? null : Number(r.grower_net),
    createdAt: new Date(r.created_at).toISOString(),
    grower:
      r.grower_firstname === null
        ? null
        : {
            id: r.grower_user_id,
            firstname: r.grower_firstname,
            lastname: r.grower_lastname ?? '',
          },
  };
}

/** A row of `contracts/smarts/{userId}/{type}` (§3 'Smart contract'). */
export interface SmartContractRow {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  /** The other party: the grower's user. */
  rightSide: { id: string; firstname: string; lastname: string };
  /**
   * Tonnes (text) and F CFA; `remaining` = contracted − delivered, never below 0; the
   * delivery date (YYYY-MM-DD).
   */
  meta: { quantity: string; remaining: string; amount: number; deliveryDate: string };
}

/** A row of GET grower/contracts/{id} (the actors' `growerContractItem`). */
export interface GrowerContractRow {
  id: string;
  reference: string;
  /** LIVRAISON, or the debt's family: AVANCE_SUR_INTRANT, AVANCE_SUR_ANANAS, FINANCEMENT_SOCIAL. */
  type: string;
  status: string;
  createdAt: string;
  /** Tonnes (delivery contracts), null for debts. */
  quantity: number | null;
  amount: number | null;
}

export type ContractQueryTables = ContractsTables &
  Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'cooperatives'>;

/** The delivery contracts' lists and detail, read from `delivery_contracts` (users joined). */
export class ContractQueries {
  constructor(
    private readonly db: Kysely<ContractQueryTables>,
    /** The contracts' streams: a run contract's recoveries by family (its settlement). */
    private readonly store?: Pick<EventStore, 'readStreams'>,
  ) {}

  /**
   * One contract with, once run, where its recoveries went: read from the contract's stream
   * (the settlement the run decided), as the read table keeps their sum only.
   */
  async detail(user: SignedInUser, id: string): Promise<ContractDetail> {
    const row = await this.byId(user, id);
    if (!this.store) return { ...row, breakdown: null, acceptance: null, acceptanceCode: null };
    const events = (await this.store.readStreams([contractStreamId(row.id)])).get(
      contractStreamId(row.id),
    );
    const state = (events ?? []).reduce(
      (s, e) => contractStream.evolve(s, e as unknown as ContractEvent),
      contractStream.initialState(),
    );
    // A delivered row may be settled already in the log (the table follows it a moment later).
    const breakdown =
      ['DELIVERED', 'COMPLETED'].includes(row.status) && state.settlement
        ? breakdownOf(state.settlement)
        : null;
    const accepted = state.acceptance;
    const by = accepted
      ? await this.db
          .selectFrom(identityUsers().as('u'))
          .select(['id', 'firstname', 'lastname'])
          .where('id', '=', accepted.acceptedBy)
          .executeTakeFirst()
      : undefined;
    const code = state.status === 'PENDING' ? state.acceptanceCode : null;
    return {
      ...row,
      breakdown,
      acceptance: accepted
        ? {
            method: accepted.method,
            acceptedAt: accepted.acceptedAt,
            acceptedBy: {
              id: accepted.acceptedBy,
              firstname: by?.firstname ?? '',
              lastname: by?.lastname ?? '',
            },
            phone: accepted.phone ? maskNumber(accepted.phone) : null,
          }
        : null,
      acceptanceCode: code
        ? {
            phone: maskNumber(code.phone),
            issuedAt: code.issuedAt,
            locked: code.wrongAttempts >= MAX_WRONG_CODES,
          }
        : null,
    };
  }

  /**
   * An aggregator's delivery contracts as smart contracts: the aggregator itself, or super
   * admin / admin for anyone (403 otherwise). `q` searches the reference and the grower's
   * names; filters as the lists; `onlyParent` keeps parent contracts only.
   */
  async smarts(
    user: SignedInUser,
    userId: string,
    query: {
      page: number;
      limit: number;
      filter: ContractFilter;
      q?: string | undefined;
      onlyParent: boolean;
    },
  ): Promise<{ data: SmartContractRow[]; count: number }> {
    if (!seesAll(user) && user.id !== userId) {
      throw new ForbiddenError('Ces contrats ne vous appartiennent pas');
    }
    let base = this.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin(identityUsers().as('u'), 'u.id', 'dc.grower_user_id')
      .where('dc.aggregator_user_id', '=', userId);
    const status = CONTRACT_FILTERS[query.filter];
    if (status !== null) base = base.where('dc.status', '=', status);
    // A single delivery contract is never a parent (LIVRAISON_PARENT is not stored yet).
    if (query.onlyParent) base = base.where(sql<boolean>`false`);
    const q = query.q?.trim();
    if (q) {
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where(
        sql<boolean>`(dc.reference || ' ' || u.firstname || ' ' || u.lastname) ilike ${like}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .select([
          'dc.id',
          'dc.reference',
          'dc.status',
          'dc.created_at',
          'dc.quantity_kg',
          'dc.delivered_kg',
          'dc.amount',
          'dc.delivery_date',
          'u.id as user_id',
          'u.firstname',
          'u.lastname',
        ])
        .orderBy('dc.created_at', 'desc')
        .orderBy('dc.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((r) => ({
        id: r.id,
        reference: r.reference,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
        rightSide: { id: r.user_id, firstname: r.firstname, lastname: r.lastname },
        meta: {
          quantity: kgToTonnes(Number(r.quantity_kg)),
          remaining: kgToTonnes(Math.max(0, Number(r.quantity_kg) - Number(r.delivered_kg ?? 0))),
          amount: Number(r.amount),
          deliveryDate: isoDay(r.delivery_date),
        },
      })),
      count: Number(total.n),
    };
  }

  /** Super admin and admin: all; an aggregator: its own. Newest first, paginated. */
  async list(
    user: SignedInUser,
    query: { page: number; limit: number; filter: ContractFilter; q?: string | undefined },
  ): Promise<{ data: DeliveryContractRow[]; count: number }> {
    let base = this.db
      .selectFrom('delivery_contracts')
      .leftJoin(identityUsers().as('gu'), 'gu.id', 'delivery_contracts.grower_user_id');
    if (!seesAll(user)) base = base.where('delivery_contracts.aggregator_user_id', '=', user.id);
    const status = CONTRACT_FILTERS[query.filter];
    if (status !== null) base = base.where('delivery_contracts.status', '=', status);
    const q = query.q?.trim();
    if (q) {
      // The reference, or the grower's names (its user), as the aggregator's smarts search.
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where(
        sql<boolean>`(delivery_contracts.reference || ' ' || coalesce(gu.firstname || ' ' || gu.lastname, '')) ilike ${like}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .selectAll('delivery_contracts')
        .select(['gu.firstname as grower_firstname', 'gu.lastname as grower_lastname'])
        .orderBy('delivery_contracts.created_at', 'desc')
        .orderBy('delivery_contracts.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map((r) => toRow(r)), count: Number(total.n) };
  }

  /**
   * GET grower/contracts/{id}: the grower's delivery contracts (LIVRAISON, sub-contracts
   * included; quantity in tonnes) and its debts (the advance and financing families, by
   * kind; status PENDING while outstanding, COMPLETED once recovered), newest first; `q`
   * searches the reference. Reach is checked by the route (the actors' grower reach).
   */
  async growerContracts(
    growerId: string,
    query: { page: number; limit: number; q?: string | null | undefined },
  ): Promise<{ data: GrowerContractRow[]; count: number }> {
    const q = query.q?.trim();
    const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    let contracts = this.db
      .selectFrom('delivery_contracts')
      .select([
        'id',
        'reference',
        sql<string>`'LIVRAISON'`.as('type'),
        'status',
        'created_at',
        sql<number | null>`quantity_kg`.as('quantity_kg'),
        sql<number | null>`amount`.as('amount'),
      ])
      .where('grower_id', '=', growerId);
    let debts = this.db
      .selectFrom('grower_debts')
      .select([
        'id',
        advanceReferenceSql('kind', 'id').as('reference'),
        'kind as type',
        sql<string>`case when recovered < principal then 'PENDING' else 'COMPLETED' end`.as(
          'status',
        ),
        'opened_at as created_at',
        sql<number | null>`null::bigint`.as('quantity_kg'),
        sql<number | null>`principal`.as('amount'),
      ])
      .where('debtor_grower_id', '=', growerId);
    if (like !== null) {
      contracts = contracts.where('reference', 'ilike', like);
      debts = debts.where(advanceReferenceSql('kind', 'id'), 'ilike', like);
    }
    const all = this.db.selectFrom(contracts.unionAll(debts).as('c'));
    const [rows, total] = await Promise.all([
      all
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      all.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((r) => ({
        id: r.id,
        reference: r.reference,
        type: r.type,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
        quantity: r.quantity_kg === null ? null : Number(r.quantity_kg) / 1000,
        amount: r.amount === null ? null : Number(r.amount),
      })),
      count: Number(total.n),
    };
  }

  /** `GET contracts/smarts/{id}`: one delivery contract in the smart shape, the detail's reach. */
  async smartById(user: SignedInUser, id: string): Promise<SmartContractRow> {
    const r = await this.readable(user, id);
    return {
      id: r.id,
      reference: r.reference,
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
      rightSide: {
        id: r.grower_user_id,
        firstname: r.grower_firstname ?? '',
        lastname: r.grower_lastname ?? '',
      },
      meta: {
        quantity: kgToTonnes(Number(r.quantity_kg)),
        remaining: kgToTonnes(Math.max(0, Number(r.quantity_kg) - Number(r.delivered_kg ?? 0))),
        amount: Number(r.amount),
        deliveryDate: isoDay(r.delivery_date),
      },
    };
  }

  async byId(user: SignedInUser, id: string): Promise<DeliveryContractRow> {
    return toRow(await this.readable(user, id));
  }

  /** The contract's row when the user may read it: 404 unknown, 403 out of reach. */
  private async readable(user: SignedInUser, id: string): Promise<Row & GrowerNames> {
    const row = await this.db
      .selectFrom('delivery_contracts')
      .leftJoin(identityUsers().as('gu'), 'gu.id', 'delivery_contracts.grower_user_id')
      .selectAll('delivery_contracts')
      .select(['gu.firstname as grower_firstname', 'gu.lastname as grower_lastname'])
      .where('delivery_contracts.id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Contrat introuvable');
    if (!seesAll(user) && row.aggregator_user_id !== user.id && !(await this.confirms(user, row))) {
      throw new ForbiddenError('Ce contrat ne vous appartient pas');
    }
    return row;
  }

  /**
   * The grower's user (its own contract) and the user of the grower's cooperative today —
   * those who confirm it — read the contract too (ShowContratLivraison's 'Confirmer').
   */
  private async confirms(user: SignedInUser, row: Row): Promise<boolean> {
    if (user.role_code === ROLE.GROWER) return row.grower_user_id === user.id;
    if (user.role_code !== ROLE.FARMER_ORGANIZATION) return false;
    const cooperative = await this.db
      .selectFrom('growers as g')
      .innerJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select('c.user_id')
      .where('g.id', '=', row.grower_id)
      .where('c.deactivated_at', 'is', null)
      .executeTakeFirst();
    return cooperative?.user_id === user.id;
  }
}
