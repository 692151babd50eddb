import { ForbiddenError, NotFoundError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import type { RequestsDb } from './commands/request-commands.js';
import type { RequestStatus, RequestType } from './domain/index.js';
import { identityUsers } from '../../identity/index.js';

export interface RequestViewer {
  userId: string;
  role: string;
}

export interface RequestListQuery {
  page: number;
  limit: number;
  status?: RequestStatus | undefined;
  q?: string | undefined;
  seasonId?: number | undefined;
}

export const REQUEST_REACH = {
  notYours: 'Vous ne pouvez consulter que vos propres demandes',
  userNotFound: 'Utilisateur introuvable',
  noRequests: 'Ce rôle n’a pas de demandes de producteurs',
  notYourGrower: 'Ce producteur n’est pas de votre coopérative',
} as const;

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whose requests a list shows: by the target user's role. */
type Scope =
  | { kind: 'ALL' }
  | { kind: 'INDUSTRIAL'; userId: string }
  | { kind: 'SFD'; userId: string }
  | { kind: 'GROWER'; userId: string }
  | { kind: 'COOPERATIVE'; userId: string };

/**
 * The requests' reads from `season_requests`, names joined at query time. Reach: an
 * industrial its own (INPUT, PINEAPLE), an SFD the SOCIAL requests asked of it, a grower its
 * own, a cooperative's user its growers', the super admin anyone's (its own id: all).
 */
export class RequestQueries {
  constructor(private readonly db: RequestsDb) {}

  /** The scope of `userId`'s list as `viewer` may see it (403 for anyone else's). */
  async scopeOf(viewer: RequestViewer, userId: string): Promise<Scope> {
    const admin = viewer.role === ROLE.SUPER_ADMIN;
    if (!admin && viewer.userId !== userId) throw new ForbiddenError(REQUEST_REACH.notYours);
    if (admin && viewer.userId === userId) return { kind: 'ALL' };
    const role = admin
      ? (
          await this.db
            .selectFrom(identityUsers().as('users'))
            .innerJoin('roles', 'roles.id', 'users.role_id')
            .select('roles.code')
            .where('users.id', '=', userId)
            .executeTakeFirst()
        )?.code
      : viewer.role;
    if (!role) throw new NotFoundError(REQUEST_REACH.userNotFound);
    switch (role) {
      case ROLE.INDUSTRIAL:
        return { kind: 'INDUSTRIAL', userId };
      case ROLE.SFD:
        return { kind: 'SFD', userId };
      case ROLE.GROWER:
        return { kind: 'GROWER', userId };
      case ROLE.FARMER_ORGANIZATION:
        return { kind: 'COOPERATIVE', userId };
      case ROLE.SUPER_ADMIN:
        return { kind: 'ALL' };
      default:
        throw new ForbiddenError(REQUEST_REACH.noRequests);
    }
  }

  /** A page of requests of one type in a scope: `{count, values}` (spec §7). */
  async list(scope: Scope, type: RequestType, query: RequestListQuery) {
    let q = this.db
      .selectFrom('season_requests as r')
      .innerJoin('growers as g', 'g.id', 'r.grower_id')
      .innerJoin(identityUsers().as('gu'), 'gu.id', 'r.grower_user_id')
      .innerJoin('seasons as s', 's.id', 'r.season_id')
      .leftJoin('fertilizers as f', 'f.id', 'r.fertilizer_id')
      .leftJoin('fertilizer_types as ft', 'ft.id', 'f.type_id')
      .leftJoin(identityUsers().as('hu'), (join) =>
        join.on((eb) => eb('hu.id', '=', eb.fn.coalesce('r.industrial_user_id', 'r.sfd_user_id'))),
      )
      .where('r.type', '=', type);
    switch (scope.kind) {
      case 'INDUSTRIAL':
        q = q.where('r.industrial_user_id', '=', scope.userId);
        break;
      case 'SFD':
        q = q.where('r.sfd_user_id', '=', scope.userId);
        break;
      case 'GROWER':
        q = q.where('r.grower_user_id', '=', scope.userId);
        break;
      case 'COOPERATIVE':
        q = q.where('g.cooperative_id', 'in', (eb) =>
          eb
            .selectFrom('cooperatives')
            .select('organization_id')
            .where('user_id', '=', scope.userId),
        );
        break;
      case 'ALL':
        break;
    }
    if (query.status) q = q.where('r.status', '=', query.status);
    if (query.seasonId !== undefined) q = q.where('r.season_id', '=', query.seasonId);
    if (query.q) {
      const pattern = like(query.q);
      q = q.where((eb) =>
        eb.or([
          eb('r.reference', 'ilike', pattern),
          eb('r.code', 'ilike', pattern),
          eb('g.reference', 'ilike', pattern),
          eb('gu.firstname', 'ilike', pattern),
          eb('gu.lastname', 'ilike', pattern),
          eb('gu.phone', 'ilike', pattern),
          eb('f.label', 'ilike', pattern),
        ]),
      );
    }
    const counted = await q
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await q
      .select([
        'r.id',
        'r.reference',
        'r.type',
        'r.status',
        'r.season_id',
        's.label as season_label',
        'r.link_id',
        'r.amount',
        'r.quantity_kg',
        'r.code',
        'r.delivery_status',
        'r.received_at',
        'r.reason',
        'r.created_at',
        'r.decided_at',
        'r.fertilizer_id',
        'f.label as fertilizer_label',
        'ft.id as fertilizer_type_id',
        'ft.label as fertilizer_type_label',
        'r.grower_id',
        'g.reference as grower_reference',
        'r.grower_user_id',
        'gu.firstname as grower_firstname',
        'gu.lastname as grower_lastname',
        'gu.phone as grower_phone',
        'hu.id as handler_id',
        'hu.firstname as handler_firstname',
        'hu.lastname as handler_lastname',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    return {
      count: Number(counted.n),
      values: rows.map((r) => ({
        id: r.id,
        reference: r.reference,
        type: r.type,
        status: r.status,
        seasonId: r.season_id,
        seasonLabel: r.season_label,
        linkId: r.link_id,
        amount: r.amount,
        quantity: r.quantity_kg,
        code: r.code,
        deliveryStatus: r.delivery_status,
        receivedAt: r.received_at?.toISOString() ?? null,
        reason: r.reason,
        createdAt: r.created_at.toISOString(),
        decidedAt: r.decided_at?.toISOString() ?? null,
        fertilizer:
          r.fertilizer_id !== null
            ? {
                id: r.fertilizer_id,
                label: r.fertilizer_label ?? '',
                type:
                  r.fertilizer_type_id !== null
                    ? { id: r.fertilizer_type_id, label: r.fertilizer_type_label ?? '' }
                    : null,
              }
            : null,
        grower: {
          id: r.grower_id,
          reference: r.grower_reference,
          user: {
            id: r.grower_user_id,
            firstname: r.grower_firstname,
            lastname: r.grower_lastname,
            phone: r.grower_phone,
          },
        },
        handler: r.handler_id
          ? {
              id: r.handler_id,
              firstname: r.handler_firstname ?? '',
              lastname: r.handler_lastname ?? '',
            }
          : null,
      })),
    };
  }

  /**
   * The filing form's choices: the growers the caller may file for (itself, or its
   * cooperative's active growers), the active seasons still running with their fertilizer
   * lines and, per grower's cluster, whether an industrial has accepted, and the active SFDs.
   */
  async filingGrowers(viewer: RequestViewer, query: { q?: string | undefined; limit: number }) {
    let q = this.db
      .selectFrom('growers as g')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
      .where('g.deactivated_at', 'is', null)
      .where('u.is_active', '=', true);
    if (viewer.role === ROLE.GROWER) q = q.where('g.user_id', '=', viewer.userId);
    else if (viewer.role === ROLE.FARMER_ORGANIZATION) {
      q = q.where('g.cooperative_id', 'in', (eb) =>
        eb
          .selectFrom('cooperatives')
          .select('organization_id')
          .where('user_id', '=', viewer.userId),
      );
    } else throw new ForbiddenError('Seul un producteur ou sa coopérative peut faire une demande');
    if (query.q) {
      const pattern = like(query.q);
      q = q.where((eb) =>
        eb.or([
          eb('u.firstname', 'ilike', pattern),
          eb('u.lastname', 'ilike', pattern),
          eb('u.phone', 'ilike', pattern),
          eb('g.reference', 'ilike', pattern),
        ]),
      );
    }
    const rows = await q
      .select(['g.id', 'g.reference', 'u.firstname', 'u.lastname', 'u.phone'])
      .orderBy('u.lastname')
      .orderBy('g.id')
      .limit(query.limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      reference: r.reference,
      firstname: r.firstname,
      lastname: r.lastname,
      phone: r.phone,
    }));
  }

  /** Active seasons not ended, with their lines (labels) for the filing form. */
  async filingSeasons(today: string) {
    const seasons = await this.db
      .selectFrom('seasons')
      .select(['id', 'label', 'from_date', 'to_date', 'fertilizers'])
      .where('is_active', '=', true)
      .where('archived', '=', false)
      .where('to_date', '>=', today)
      .orderBy('from_date', 'desc')
      .execute();
    const ids = [...new Set(seasons.flatMap((s) => s.fertilizers.map((f) => f.fertilizerId)))];
    const labels = ids.length
      ? await this.db
          .selectFrom('fertilizers as f')
          .innerJoin('fertilizer_types as t', 't.id', 'f.type_id')
          .select(['f.id', 'f.label', 't.label as type_label'])
          .where('f.id', 'in', ids)
          .execute()
      : [];
    const byId = new Map(labels.map((l) => [l.id, l]));
    return seasons.map((s) => ({
      id: s.id,
      label: s.label,
      from: String(s.from_date),
      to: String(s.to_date),
      fertilizers: s.fertilizers.map((f) => ({
        fertilizerId: f.fertilizerId,
        label: byId.get(f.fertilizerId)?.label ?? '',
        typeLabel: byId.get(f.fertilizerId)?.type_label ?? '',
        unitAmount: f.amount,
      })),
    }));
  }

  /** The active SFD accounts a SOCIAL request may be asked of. */
  async sfds() {
    const rows = await this.db
      .selectFrom(identityUsers().as('users'))
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .leftJoin('organizations as o', 'o.id', 'users.organization_id')
      .select(['users.id', 'users.firstname', 'users.lastname', 'o.denomination'])
      .where('roles.code', '=', ROLE.SFD)
      .where('users.is_active', '=', true)
      .where('users.deleted_at', 'is', null)
      .orderBy('users.lastname')
      .execute();
    return rows.map((r) => ({
      userId: r.id,
      name: r.denomination ?? `${r.firstname} ${r.lastname}`,
    }));
  }
}
