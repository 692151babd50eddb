import { sql, type Kysely } from 'kysely';
import { ADVANCE_PREFIX, advanceReference, advanceReferenceSql } from '../../kernel/references.js';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import type { DebtKind } from '../domain/index.js';
import type { ContractsTables } from '../tables.js';
import type { AdvancesTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

export type AdvanceQueryTables = AdvancesTables &
  Pick<ContractsTables, 'grower_debts' | 'delivery_contracts'> &
  Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers'>;

/** The reference shown for an advance: the kernel's (its family's prefix and a code of its id). */
export { ADVANCE_PREFIX };

export const ADVANCE_FILTERS = ['all', 'open', 'repaid'] as const;
export type AdvanceFilter = (typeof ADVANCE_FILTERS)[number];

export interface AdvanceRow {
  id: string;
  reference: string;
  kind: DebtKind;
  /** OPEN while something is owed, REPAID once recovered in full. */
  status: 'OPEN' | 'REPAID';
  createdAt: string;
  growerId: string;
  growerReference: string;
  /** The grower's user (the other party). */
  rightSide: { id: string; firstname: string; lastname: string };
  /** F CFA: the advance, what delivery contracts recovered, what remains owed. */
  meta: { amount: number; recovered: number; remaining: number };
}

const seesAll = (user: SignedInUser) =>
  user.role_code === ROLE.SUPER_ADMIN || user.role_code === ROLE.ADMIN;

/**
 * The advance families as smart contracts, from the growers' debts: an industrial's input
 * and pineapple advances, an SFD's social financings (the creditor itself; super admin and
 * admin anyone's), and what the delivery contracts recovered of one.
 */
export class AdvanceQueries {
  constructor(private readonly db: Kysely<AdvanceQueryTables>) {}

  private base() {
    return this.db
      .selectFrom('grower_debts as d')
      .innerJoin('growers as g', 'g.id', 'd.debtor_grower_id')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id');
  }

  private columns() {
    return [
      'd.id',
      'd.kind',
      'd.principal',
      'd.recovered',
      'd.opened_at',
      'g.id as grower_id',
      'g.reference as grower_reference',
      'u.id as user_id',
      'u.firstname',
      'u.lastname',
    ] as const;
  }

  private toRow(r: {
    id: string;
    kind: string;
    principal: number;
    recovered: number;
    opened_at: Date;
    grower_id: string;
    grower_reference: string;
    user_id: string;
    firstname: string;
    lastname: string;
  }): AdvanceRow {
    const kind = r.kind as DebtKind;
    const amount = Number(r.principal);
    const recovered = Number(r.recovered);
    return {
      id: r.id,
      reference: advanceReference(kind, r.id),
      kind,
      status: recovered >= amount ? 'REPAID' : 'OPEN',
      createdAt: new Date(r.opened_at).toISOString(),
      growerId: r.grower_id,
      growerReference: r.grower_reference,
      rightSide: { id: r.user_id, firstname: r.firstname, lastname: r.lastname },
      meta: { amount, recovered, remaining: Math.max(0, amount - recovered) },
    };
  }

  async list(
    user: SignedInUser,
    creditorUserId: string,
    kind: DebtKind,
    query: { page: number; limit: number; q?: string | undefined; filter: AdvanceFilter },
  ): Promise<{ data: AdvanceRow[]; count: number }> {
    if (!seesAll(user) && user.id !== creditorUserId) {
      throw new ForbiddenError('Ces contrats ne vous appartiennent pas');
    }
    let base = this.base()
      .where('d.creditor_user_id', '=', creditorUserId)
      .where('d.kind', '=', kind);
    if (query.filter === 'open') base = base.where(sql<boolean>`d.recovered < d.principal`);
    if (query.filter === 'repaid') base = base.where(sql<boolean>`d.recovered >= d.principal`);
    const q = query.q?.trim();
    if (q) {
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where(
        sql<boolean>`(${advanceReferenceSql('d.kind', 'd.id')} || ' ' || g.reference || ' ' || u.firstname || ' ' || u.lastname) ilike ${like}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .select(this.columns())
        .orderBy('d.opened_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map((r) => this.toRow(r)), count: Number(total.n) };
  }

  /** An advance and the delivery contracts that recovered it (its 'sub-contracts' page). */
  async recoveries(
    user: SignedInUser,
    debtId: string,
    query: { page: number; limit: number },
  ): Promise<{
    advance: AdvanceRow;
    data: { contractId: string; reference: string | null; amount: number; recoveredAt: string }[];
    count: number;
  }> {
    const row = await this.base()
      .select(this.columns())
      .where('d.id', '=', debtId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Contrat introuvable');
    const creditor = await this.db
      .selectFrom('grower_debts')
      .select('creditor_user_id')
      .where('id', '=', debtId)
      .executeTakeFirstOrThrow();
    if (!seesAll(user) && creditor.creditor_user_id !== user.id) {
      throw new ForbiddenError('Ce contrat ne vous appartient pas');
    }
    const base = this.db
      .selectFrom('grower_debt_recoveries as r')
      .leftJoin('delivery_contracts as dc', 'dc.id', 'r.contract_id')
      .where('r.debt_id', '=', debtId);
    const [rows, total] = await Promise.all([
      base
        .select(['r.contract_id', 'dc.reference', 'r.amount', 'r.recovered_at'])
        .orderBy('r.recovered_at', 'asc')
        .orderBy('r.contract_id', 'asc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      advance: this.toRow(row),
      data: rows.map((r) => ({
        contractId: r.contract_id,
        reference: r.reference,
        amount: Number(r.amount),
        recoveredAt: new Date(r.recovered_at).toISOString(),
      })),
      count: Number(total.n),
    };
  }
}
