import { sql, type Kysely } from 'kysely';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { kgToTonnes } from '../domain/index.js';
import { CONTRACT_FILTERS, type ContractFilter } from '../queries.js';
import type { ContractsTables } from '../tables.js';
import type { BatchesTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

export type BatchQueryTables = BatchesTables &
  Pick<ContractsTables, 'delivery_contracts'> &
  Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'plots'>;

const seesAll = (user: SignedInUser) =>
  user.role_code === ROLE.SUPER_ADMIN || user.role_code === ROLE.ADMIN;

const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface PreviewRow {
  line: number;
  growerId: string;
  growerReference: string;
  firstname: string;
  lastname: string;
  phone: string | null;
  plotId: string;
  plotName: string;
  productType: string | null;
  /** Tonnes as text. */
  quantity: string;
  amount: number;
  deliveryDate: string;
}

/** The parents (LIVRAISON_PARENT) and their sub-contracts, and a preview's rows. */
export class BatchQueries {
  constructor(private readonly db: Kysely<BatchQueryTables>) {}

  /** A page of a preview's rows (the confirmation page), growers and plots joined. */
  async previewRows(
    previewId: string,
    query: { page: number; limit: number },
  ): Promise<PreviewRow[]> {
    const rows = await this.db
      .selectFrom('contract_batch_preview_rows as r')
      .innerJoin('growers as g', 'g.id', 'r.grower_id')
      .innerJoin(identityUsers().as('u'), 'u.id', 'r.grower_user_id')
      .innerJoin('plots as p', 'p.id', 'r.plot_id')
      .select([
        'r.line',
        'r.grower_id',
        'g.reference',
        'u.firstname',
        'u.lastname',
        'u.phone',
        'r.plot_id',
        'p.name as plot_name',
        'r.product_type',
        'r.quantity_kg',
        'r.amount',
        sql<string>`to_char(r.delivery_date, 'YYYY-MM-DD')`.as('delivery_date'),
      ])
      .where('r.preview_id', '=', previewId)
      .orderBy('r.line')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    return rows.map((r) => ({
      line: r.line,
      growerId: r.grower_id,
      growerReference: r.reference,
      firstname: r.firstname,
      lastname: r.lastname,
      phone: r.phone,
      plotId: r.plot_id,
      plotName: r.plot_name,
      productType: r.product_type,
      quantity: kgToTonnes(Number(r.quantity_kg)),
      amount: Number(r.amount),
      deliveryDate: r.delivery_date,
    }));
  }

  /**
   * `contracts/smarts/{userId}/LIVRAISON_PARENT`: an aggregator's parents with their
   * sub-contracts counted by status and summed (the aggregator itself; super admin, admin).
   */
  async parents(
    user: SignedInUser,
    userId: string,
    query: { page: number; limit: number; q?: string | undefined },
  ): Promise<{ data: ParentRow[]; count: number }> {
    if (!seesAll(user) && user.id !== userId) {
      throw new ForbiddenError('Ces contrats ne vous appartiennent pas');
    }
    let base = this.db
      .selectFrom('contract_parents as cp')
      .where('cp.aggregator_user_id', '=', userId);
    const q = query.q?.trim();
    if (q) {
      base = base.where(
        sql<boolean>`(cp.reference || ' ' || coalesce(cp.file_name, '')) ilike ${likeOf(q)}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .selectAll('cp')
        .orderBy('cp.created_at', 'desc')
        .orderBy('cp.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await this.db
          .selectFrom('delivery_contracts')
          .select([
            'parent_id',
            'status',
            (eb) => eb.fn.countAll<string>().as('n'),
            (eb) => eb.fn.sum<string>('delivered_kg').as('delivered_kg'),
          ])
          .where('parent_id', 'in', ids)
          .groupBy(['parent_id', 'status'])
          .execute()
      : [];
    return {
      data: rows.map((r) => {
        const byStatus: Record<string, number> = {};
        let deliveredKg = 0;
        for (const c of counts.filter((c) => c.parent_id === r.id)) {
          byStatus[c.status] = Number(c.n);
          deliveredKg += Number(c.delivered_kg ?? 0);
        }
        return {
          id: r.id,
          reference: r.reference,
          status: parentStatus(byStatus, r.sub_count),
          createdAt: new Date(r.created_at).toISOString(),
          source: r.source,
          fileName: r.file_name,
          meta: {
            quantity: kgToTonnes(Number(r.total_kg)),
            remaining: kgToTonnes(Math.max(0, Number(r.total_kg) - deliveredKg)),
            amount: Number(r.total_amount),
          },
          subContracts: r.sub_count,
          byStatus,
        };
      }),
      count: Number(total.n),
    };
  }

  /** `contracts/sub-smarts/{parentId}`: a parent's sub-contracts as smart contracts. */
  async subContracts(
    user: SignedInUser,
    parentId: string,
    query: { page: number; limit: number; filter: ContractFilter; q?: string | undefined },
  ): Promise<{ parent: ParentHeader; data: SubContractRow[]; count: number }> {
    const parent = await this.db
      .selectFrom('contract_parents')
      .selectAll()
      .where('id', '=', parentId)
      .executeTakeFirst();
    if (!parent) throw new NotFoundError('Contrat introuvable');
    if (!seesAll(user) && parent.aggregator_user_id !== user.id) {
      throw new ForbiddenError('Ce contrat ne vous appartient pas');
    }
    let base = this.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin(identityUsers().as('u'), 'u.id', 'dc.grower_user_id')
      .innerJoin('growers as g', 'g.id', 'dc.grower_id')
      .innerJoin('plots as p', 'p.id', 'dc.plot_id')
      .where('dc.parent_id', '=', parentId);
    const status = CONTRACT_FILTERS[query.filter];
    if (status !== null) base = base.where('dc.status', '=', status);
    const q = query.q?.trim();
    if (q) {
      base = base.where(
        sql<boolean>`(dc.reference || ' ' || g.reference || ' ' || u.firstname || ' ' || u.lastname) ilike ${likeOf(q)}`,
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
          sql<string>`to_char(dc.delivery_date, 'YYYY-MM-DD')`.as('delivery_date'),
          'g.reference as grower_reference',
          'p.name as plot_name',
          'u.id as user_id',
          'u.firstname',
          'u.lastname',
        ])
        // A parent's subs share one creation time: by grower reference, as a file lists them.
        .orderBy('dc.created_at', 'asc')
        .orderBy('g.reference', 'asc')
        .orderBy('dc.id', 'asc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      parent: {
        id: parent.id,
        reference: parent.reference,
        subContracts: parent.sub_count,
        quantity: kgToTonnes(Number(parent.total_kg)),
        amount: Number(parent.total_amount),
        createdAt: new Date(parent.created_at).toISOString(),
      },
      data: rows.map((r) => ({
        id: r.id,
        reference: r.reference,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
        deliveryDate: r.delivery_date,
        growerReference: r.grower_reference,
        plotName: r.plot_name,
        rightSide: { id: r.user_id, firstname: r.firstname, lastname: r.lastname },
        meta: {
          quantity: kgToTonnes(Number(r.quantity_kg)),
          remaining: kgToTonnes(Math.max(0, Number(r.quantity_kg) - Number(r.delivered_kg ?? 0))),
          amount: Number(r.amount),
        },
      })),
      count: Number(total.n),
    };
  }
}

/** A parent's status from its subs': COMPLETED when all are, PENDING while any waits… */
function parentStatus(byStatus: Record<string, number>, total: number): string {
  const n = (s: string) => byStatus[s] ?? 0;
  if (n('COMPLETED') === total) return 'COMPLETED';
  if (n('CANCELED') === total) return 'CANCELED';
  if (n('PENDING') > 0) return 'PENDING';
  if (n('CONFIRMED') > 0) return 'CONFIRMED';
  if (n('DELIVERED') > 0) return 'DELIVERED';
  if (n('OUTTIME') > 0) return 'OUTTIME';
  return 'COMPLETED';
}

export interface ParentRow {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  source: string;
  fileName: string | null;
  meta: { quantity: string; remaining: string; amount: number };
  subContracts: number;
  byStatus: Record<string, number>;
}

export interface ParentHeader {
  id: string;
  reference: string;
  subContracts: number;
  quantity: string;
  amount: number;
  createdAt: string;
}

export interface SubContractRow {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  deliveryDate: string;
  growerReference: string;
  plotName: string;
  rightSide: { id: string; firstname: string; lastname: string };
  meta: { quantity: string; remaining: string; amount: number };
}
