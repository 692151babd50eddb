import { sql } from 'kysely';
import { assignmentReference } from '../../kernel/references.js';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import type { SeasonActor } from '../domain/index.js';
import { INPUT_MESSAGES } from './domain/index.js';
import type { InputsDb } from './db.js';
import { identityUsers } from '../../identity/index.js';

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Who sees every industrial's providers. */
const STAFF: readonly string[] = [ROLE.SUPER_ADMIN, ROLE.CLUSTER_MANAGER, ROLE.ADMIN];

export const INPUT_REACH = {
  notYours: 'Ces fournisseurs d’intrants ne vous concernent pas',
  notYourContracts: 'Ces contrats ne vous appartiennent pas',
} as const;

/** A row of the providers' list of a link (§2.5). */
export interface ProviderRow {
  id: number;
  seasonId: number;
  linkId: number;
  supplierId: string | null;
  provider: { userId: string; firstname: string; lastname: string; phone: string | null };
  fertilizer: { id: number; label: string; type: { id: number; label: string } };
  quantity: number;
  unitAmount: number;
  amount: number;
  deliveredAmount: number;
  /** What the hold still keeps for deliveries (0 once banned). */
  remainingAmount: number;
  status: string;
  createdAt: string;
}

/** A row of `contracts/smarts/{userId}/FOURNITURE_INTRANT`, in the contracts' smart shape. */
export interface InputSmartRow {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  rightSide: { id: string; firstname: string; lastname: string };
  meta: { quantity: string; remaining: string; amount: number; fertilizer: string };
}

/** One input supply contract (FOURNITURE_INTRANT): ShowContratIntrant's data. */
export interface InputSupplyDetail {
  id: string;
  reference: string;
  /** ACTIVE | BANNED */
  status: string;
  createdAt: string;
  season: { id: number; label: string; fromDate: string; toDate: string };
  industrial: { userId: string; firstname: string; lastname: string; phone: string | null };
  provider: { userId: string; firstname: string; lastname: string; phone: string | null };
  fertilizer: { label: string; type: string };
  /** Kg (integers). */
  quantity: number;
  deliveredQuantity: number;
  /** F CFA (integers): the price per kg, the contract, delivered so far, still held, released. */
  unitAmount: number;
  amount: number;
  deliveredAmount: number;
  remainingAmount: number;
  releasedAmount: number;
}

export const INPUT_SUPPLY_MESSAGES = {
  notFound: 'Contrat de fourniture introuvable',
  notYours: 'Ce contrat de fourniture ne vous appartient pas',
} as const;

/** The assignment's reference: the kernel's, which the wallet shows for its hold too. */
export { assignmentReference };

export class InputQueries {
  constructor(private readonly db: InputsDb) {}

  /** An industrial asks about itself only; staff about anyone (403). */
  requireSelfOrStaff(viewer: SeasonActor, userId: string): void {
    if (viewer.userId !== userId && !STAFF.includes(viewer.role)) {
      throw new ForbiddenError(INPUT_REACH.notYours);
    }
  }

  /** 'Prénom Nom' of a user, for the messages. */
  async userName(userId: string): Promise<string> {
    const u = await this.db
      .selectFrom(identityUsers().as('users'))
      .select(['firstname', 'lastname'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return u ? `${u.firstname} ${u.lastname}`.trim() : '';
  }

  private base() {
    return this.db
      .selectFrom('season_input_providers as sip')
      .innerJoin(identityUsers().as('u'), 'u.id', 'sip.provider_user_id')
      .innerJoin('fertilizers as f', 'f.id', 'sip.fertilizer_id')
      .innerJoin('fertilizer_types as ft', 'ft.id', 'sip.type_id')
      .leftJoin('input_suppliers as s', 's.user_id', 'sip.provider_user_id');
  }

  /**
   * GET user-cluster-input-provider/{linkId}/input-providers: the ACTIVE providers of a
   * link. Staff any link; the industrial its own (403 otherwise); a provider its own rows.
   */
  async ofLink(
    viewer: SeasonActor,
    linkId: number,
    query: { q?: string | undefined; page: number; limit: number },
  ): Promise<{ data: ProviderRow[]; count: number }> {
    const link = await this.db
      .selectFrom('season_links')
      .select(['user_id'])
      .where('id', '=', linkId)
      .executeTakeFirst();
    if (!link) throw new NotFoundError(INPUT_MESSAGES.linkNotFound);
    if (viewer.role === ROLE.INDUSTRIAL && link.user_id !== viewer.userId) {
      throw new ForbiddenError(INPUT_REACH.notYours);
    }
    let base = this.base().where('sip.link_id', '=', linkId).where('sip.status', '=', 'ACTIVE');
    if (viewer.role === ROLE.INPUT_PROVIDER) {
      base = base.where('sip.provider_user_id', '=', viewer.userId);
    }
    const q = query.q?.trim();
    if (q) {
      base = base.where(
        sql<boolean>`(u.firstname || ' ' || u.lastname || ' ' || coalesce(u.phone, '') || ' ' || f.label) ilike ${like(q)}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .select([
          'sip.id',
          'sip.season_id',
          'sip.link_id',
          'sip.quantity_kg',
          'sip.unit_amount',
          'sip.amount',
          'sip.delivered_amount',
          'sip.status',
          'sip.created_at',
          's.id as supplier_id',
          'u.id as user_id',
          'u.firstname',
          'u.lastname',
          'u.phone',
          'f.id as fertilizer_id',
          'f.label as fertilizer_label',
          'ft.id as type_id',
          'ft.label as type_label',
        ])
        .orderBy('sip.created_at', 'desc')
        .orderBy('sip.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((r) => ({
        id: r.id,
        seasonId: r.season_id,
        linkId: r.link_id,
        supplierId: r.supplier_id,
        provider: {
          userId: r.user_id,
          firstname: r.firstname,
          lastname: r.lastname,
          phone: r.phone,
        },
        fertilizer: {
          id: r.fertilizer_id,
          label: r.fertilizer_label,
          type: { id: r.type_id, label: r.type_label },
        },
        quantity: Number(r.quantity_kg),
        unitAmount: Number(r.unit_amount),
        amount: Number(r.amount),
        deliveredAmount: Number(r.delivered_amount),
        remainingAmount:
          r.status === 'ACTIVE' ? Math.max(0, Number(r.amount) - Number(r.delivered_amount)) : 0,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      count: Number(total.n),
    };
  }

  /**
   * `contracts/smarts/{userId}/FOURNITURE_INTRANT`: an industrial's assignments (the right
   * side is the provider), or, for a provider asking its own id, its assignments (the right
   * side is the industrial). Super admin and admin anyone's; others 403.
   */
  async smarts(
    viewer: SeasonActor,
    userId: string,
    query: { q?: string | undefined; page: number; limit: number },
  ): Promise<{ data: InputSmartRow[]; count: number }> {
    const staff = viewer.role === ROLE.SUPER_ADMIN || viewer.role === ROLE.ADMIN;
    if (!staff && viewer.userId !== userId) {
      throw new ForbiddenError(INPUT_REACH.notYourContracts);
    }
    const target = await this.db
      .selectFrom(identityUsers().as('users'))
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('roles.code')
      .where('users.id', '=', userId)
      .executeTakeFirst();
    const asProvider = target?.code === ROLE.INPUT_PROVIDER;
    let base = this.db
      .selectFrom('season_input_providers as sip')
      .innerJoin(
        identityUsers().as('u'),
        'u.id',
        asProvider ? 'sip.industrial_user_id' : 'sip.provider_user_id',
      )
      .innerJoin('fertilizers as f', 'f.id', 'sip.fertilizer_id')
      .where(asProvider ? 'sip.provider_user_id' : 'sip.industrial_user_id', '=', userId);
    const q = query.q?.trim();
    if (q) {
      base = base.where(
        sql<boolean>`('FI-' || lpad(sip.id::text, 6, '0') || ' ' || u.firstname || ' ' || u.lastname || ' ' || f.label) ilike ${like(q)}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .select([
          'sip.id',
          'sip.status',
          'sip.created_at',
          'sip.quantity_kg',
          'sip.unit_amount',
          'sip.amount',
          'sip.delivered_amount',
          'u.id as user_id',
          'u.firstname',
          'u.lastname',
          'f.label as fertilizer_label',
        ])
        .orderBy('sip.created_at', 'desc')
        .orderBy('sip.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((r) => {
        const deliveredKg = Math.floor(Number(r.delivered_amount) / Number(r.unit_amount));
        return {
          id: String(r.id),
          reference: assignmentReference(r.id),
          status: r.status,
          createdAt: new Date(r.created_at).toISOString(),
          rightSide: { id: r.user_id, firstname: r.firstname, lastname: r.lastname },
          meta: {
            quantity: String(r.quantity_kg),
            remaining: String(
              r.status === 'ACTIVE' ? Math.max(0, Number(r.quantity_kg) - deliveredKg) : 0,
            ),
            amount: Number(r.amount),
            fertilizer: r.fertilizer_label,
          },
        };
      }),
      count: Number(total.n),
    };
  }

  /**
   * `contracts/input-supply/{id}`: one input supply contract (an industrial's provider
   * assignment). Super admin and admin any; the industrial and the provider their own (403);
   * unknown 404.
   */
  async supplyContract(viewer: SeasonActor, id: number): Promise<InputSupplyDetail> {
    const r = await this.db
      .selectFrom('season_input_providers as sip')
      .innerJoin('seasons as s', 's.id', 'sip.season_id')
      .innerJoin(identityUsers().as('i'), 'i.id', 'sip.industrial_user_id')
      .innerJoin(identityUsers().as('p'), 'p.id', 'sip.provider_user_id')
      .innerJoin('fertilizers as f', 'f.id', 'sip.fertilizer_id')
      .innerJoin('fertilizer_types as ft', 'ft.id', 'sip.type_id')
      .select([
        'sip.id',
        'sip.status',
        'sip.created_at',
        'sip.quantity_kg',
        'sip.unit_amount',
        'sip.amount',
        'sip.delivered_amount',
        'sip.released_amount',
        'sip.industrial_user_id',
        'sip.provider_user_id',
        's.id as season_id',
        's.label as season_label',
        sql<string>`to_char(s.from_date, 'YYYY-MM-DD')`.as('from_date'),
        sql<string>`to_char(s.to_date, 'YYYY-MM-DD')`.as('to_date'),
        'i.firstname as i_firstname',
        'i.lastname as i_lastname',
        'i.phone as i_phone',
        'p.firstname as p_firstname',
        'p.lastname as p_lastname',
        'p.phone as p_phone',
        'f.label as fertilizer_label',
        'ft.label as type_label',
      ])
      .where('sip.id', '=', id)
      .executeTakeFirst();
    if (!r) throw new NotFoundError(INPUT_SUPPLY_MESSAGES.notFound);
    const staff = viewer.role === ROLE.SUPER_ADMIN || viewer.role === ROLE.ADMIN;
    if (
      !staff &&
      !(viewer.role === ROLE.INDUSTRIAL && r.industrial_user_id === viewer.userId) &&
      !(viewer.role === ROLE.INPUT_PROVIDER && r.provider_user_id === viewer.userId)
    ) {
      throw new ForbiddenError(INPUT_SUPPLY_MESSAGES.notYours);
    }
    const unit = Number(r.unit_amount);
    const delivered = Number(r.delivered_amount);
    return {
      id: String(r.id),
      reference: assignmentReference(r.id),
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
      season: { id: r.season_id, label: r.season_label, fromDate: r.from_date, toDate: r.to_date },
      industrial: {
        userId: r.industrial_user_id,
        firstname: r.i_firstname,
        lastname: r.i_lastname,
        phone: r.i_phone,
      },
      provider: {
        userId: r.provider_user_id,
        firstname: r.p_firstname,
        lastname: r.p_lastname,
        phone: r.p_phone,
      },
      fertilizer: { label: r.fertilizer_label, type: r.type_label },
      quantity: Number(r.quantity_kg),
      deliveredQuantity: unit > 0 ? Math.floor(delivered / unit) : 0,
      unitAmount: unit,
      amount: Number(r.amount),
      deliveredAmount: delivered,
      remainingAmount: r.status === 'ACTIVE' ? Math.max(0, Number(r.amount) - delivered) : 0,
      releasedAmount: Number(r.released_amount),
    };
  }
}
