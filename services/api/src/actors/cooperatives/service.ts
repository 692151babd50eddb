import { ConflictError, ForbiddenError, NotFoundError } from '@filiere/platform';
import type { Members } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { organizationGrowers } from './growers-of-organization.js';
import {
  mayManageInactiveCooperatives,
  mayReadOrganization,
  mayWrite,
  reaches,
  REACH_MESSAGES,
  staffScope,
  type Viewer,
} from './domain/reach.js';
import {
  cooperativesDb,
  findCooperative,
  findOrganization,
  listCooperatives,
  organizationUsers,
  type CooperativesDb,
} from './queries.js';
import type {
  CooperativeDto,
  CreateCooperativeBody,
  ListQuery,
  UpdateCooperativeBody,
} from './schemas.js';
import type { ProductTables } from '../../kernel/tables.js';
import type { PushPublisher } from '@filiere/projections';
import { actorPush, publishChange } from './pushes.js';
import type { Kysely } from 'kysely';

export const COOPERATIVE_MESSAGES = {
  notFound: 'Coopérative introuvable',
  organizationNotFound: 'Organisation introuvable',
  clusterNotFound: 'Cluster introuvable',
  alreadyInactive: 'Cette coopérative est déjà désactivée',
  alreadyActive: 'Cette coopérative est déjà active',
  deactivated: (label: string) =>
    `La coopérative ${label} est désactivée. Elle pourra être réactivée`,
} as const;

export const viewerOf = (actor: SignedInUser): Viewer => ({
  id: actor.id,
  role: actor.role_code,
  clusterId: actor.cluster_id,
  organizationId: actor.organization_id,
});

/** The scope of a list, or the French refusal (403). */
export function scopeOrThrow(viewer: Viewer) {
  const scope = staffScope(viewer);
  if (scope.kind === 'refused') throw new ForbiddenError(scope.message, { reason: scope.reason });
  return scope;
}

/**
 * Cooperatives: an identity organisation (COOPERATIVE) + its representative user
 * (ROLE_FARMER_ORGANIZATION), both created through identity's members, + the `cooperatives`
 * row, in one transaction. Reach per domain/reach.ts; payout accounts only at registration.
 */
export class CooperativesService {
  private readonly db: CooperativesDb;

  constructor(
    private readonly pool: Kysely<ProductTables>,
    private readonly members: Members<ProductTables>,
    private readonly publish?: PushPublisher,
    private readonly log?: (error: unknown) => void,
  ) {
    this.db = cooperativesDb(pool);
  }

  /** Tells those who see the cooperative that their list changed. */
  private changed(cooperative: CooperativeDto): Promise<void> {
    return publishChange(
      {
        pool: this.pool,
        ...(this.publish ? { publish: this.publish } : {}),
        ...(this.log ? { log: this.log } : {}),
      },
      cooperative.clusterId,
      (userIds) =>
        actorPush({
          type: 'actors.cooperative.changed',
          userIds,
          data: { cooperativeId: cooperative.id },
        }),
    );
  }

  list(actor: SignedInUser, query: ListQuery, clusterId?: string) {
    const viewer = viewerOf(actor);
    const scope = scopeOrThrow(viewer);
    if (clusterId && !reaches(viewer, clusterId)) {
      throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    }
    if (query.status === 'inactive' && !mayManageInactiveCooperatives(viewer)) {
      throw new ForbiddenError(REACH_MESSAGES.superAdminOnly);
    }
    return listCooperatives(this.db, scope, query, clusterId);
  }

  /** The cooperative, if `actor` reaches it: 404 when unknown, 403 out of reach. */
  async get(actor: SignedInUser, organizationId: string): Promise<CooperativeDto> {
    const found = await findCooperative(this.db, organizationId);
    if (!found) throw new NotFoundError(COOPERATIVE_MESSAGES.notFound);
    const viewer = viewerOf(actor);
    scopeOrThrow(viewer);
    if (!reaches(viewer, found.clusterId)) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    return found;
  }

  /** The cooperative, if `actor` may change it. */
  private async writable(actor: SignedInUser, organizationId: string) {
    const found = await this.get(actor, organizationId);
    if (!mayWrite(viewerOf(actor), found.clusterId)) {
      throw new ForbiddenError(REACH_MESSAGES.forbidden);
    }
    return found;
  }

  async create(
    actor: SignedInUser,
    clusterId: string,
    body: CreateCooperativeBody,
  ): Promise<CooperativeDto> {
    const viewer = viewerOf(actor);
    scopeOrThrow(viewer);
    const cluster = await this.db
      .selectFrom('clusters')
      .select('id')
      .where('id', '=', clusterId)
      .executeTakeFirst();
    if (!cluster) throw new NotFoundError(COOPERATIVE_MESSAGES.clusterNotFound);
    if (!mayWrite(viewer, clusterId)) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    const organizationId = await this.members.register(
      {
        role: ROLE.FARMER_ORGANIZATION,
        firstname: body.user.firstname,
        lastname: body.user.lastname,
        phone: body.user.phone,
        email: body.user.email,
        nip: body.user.nip ?? null,
        clusterId,
        organizationId: null,
        organization: { denomination: body.label, type: 'COOPERATIVE', ifu: body.user.ifu },
        momoAccountNumber: body.momoInfo.momoNumber,
        bankName: body.accountInfo.providerName,
        bankAccountNumber: body.accountInfo.accountNumber,
      },
      actor.id,
      async (trx, user) => {
        const organizationId = user.organizationId!;
        await cooperativesDb<ProductTables>(trx)
          .insertInto('cooperatives')
          .values({
            organization_id: organizationId,
            user_id: user.id,
            cluster_id: clusterId,
            rccm: body.user.rccm ?? null,
            ifu: body.user.ifu,
          })
          .execute();
        return organizationId;
      },
    );
    const created = (await findCooperative(this.db, organizationId))!;
    await this.changed(created);
    return created;
  }

  async update(
    actor: SignedInUser,
    organizationId: string,
    body: UpdateCooperativeBody,
  ): Promise<CooperativeDto> {
    const current = await this.writable(actor, organizationId);
    const { rccm, ifu, ...person } = body.user ?? {};
    if (Object.keys(person).length) {
      await this.members.update(current.userId, person, actor.id);
    }
    await this.db.transaction().execute(async (trx) => {
      if (body.label !== undefined) {
        await trx
          .updateTable('organizations')
          .set({ denomination: body.label, ...(ifu !== undefined ? { ifu } : {}) })
          .where('id', '=', organizationId)
          .execute();
      } else if (ifu !== undefined) {
        await trx
          .updateTable('organizations')
          .set({ ifu })
          .where('id', '=', organizationId)
          .execute();
      }
      if (rccm !== undefined || ifu !== undefined) {
        await trx
          .updateTable('cooperatives')
          .set({
            ...(rccm !== undefined ? { rccm } : {}),
            ...(ifu !== undefined ? { ifu } : {}),
            updated_at: new Date(),
          })
          .where('organization_id', '=', organizationId)
          .execute();
      }
    });
    const updated = (await findCooperative(this.db, organizationId))!;
    await this.changed(updated);
    return updated;
  }

  /** DELETE: a soft deactivation of the row and of the representative's account. */
  async deactivate(actor: SignedInUser, organizationId: string): Promise<{ message: string }> {
    const current = await this.writable(actor, organizationId);
    if (!current.isActive) throw new ConflictError(COOPERATIVE_MESSAGES.alreadyInactive);
    await this.members.setActive(
      current.userId,
      false,
      actor.id,
      'Coopérative désactivée',
      async (trx) => {
        await cooperativesDb<ProductTables>(trx)
          .updateTable('cooperatives')
          .set({ deactivated_at: new Date(), updated_at: new Date() })
          .where('organization_id', '=', organizationId)
          .execute();
      },
    );
    await this.changed(current);
    return { message: COOPERATIVE_MESSAGES.deactivated(current.label) };
  }

  /** The super admin's reactivation. */
  async reactivate(actor: SignedInUser, organizationId: string): Promise<CooperativeDto> {
    if (!mayManageInactiveCooperatives(viewerOf(actor))) {
      throw new ForbiddenError(REACH_MESSAGES.superAdminOnly);
    }
    const current = await this.get(actor, organizationId);
    if (current.isActive) throw new ConflictError(COOPERATIVE_MESSAGES.alreadyActive);
    await this.members.setActive(
      current.userId,
      true,
      actor.id,
      'Coopérative réactivée',
      async (trx) => {
        await cooperativesDb<ProductTables>(trx)
          .updateTable('cooperatives')
          .set({ deactivated_at: null, updated_at: new Date() })
          .where('organization_id', '=', organizationId)
          .execute();
      },
    );
    const reactivated = (await findCooperative(this.db, organizationId))!;
    await this.changed(reactivated);
    return reactivated;
  }

  /** An organisation `actor` may read (`organization/{id}/…`): 404 unknown, 403 out of reach. */
  async organization(actor: SignedInUser, organizationId: string) {
    const found = await findOrganization(this.db, organizationId);
    if (!found) throw new NotFoundError(COOPERATIVE_MESSAGES.organizationNotFound);
    if (!mayReadOrganization(viewerOf(actor), { id: found.id, clusterId: found.cluster_id })) {
      throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    }
    return found;
  }

  async organizationCooperative(actor: SignedInUser, organizationId: string) {
    await this.organization(actor, organizationId);
    const found = await findCooperative(this.db, organizationId);
    if (!found) throw new NotFoundError(COOPERATIVE_MESSAGES.notFound);
    return found;
  }

  async organizationGrowers(actor: SignedInUser, organizationId: string, query: ListQuery) {
    await this.organization(actor, organizationId);
    return organizationGrowers(this.pool, organizationId, query);
  }

  async organizationUsers(actor: SignedInUser, organizationId: string, query: ListQuery) {
    await this.organization(actor, organizationId);
    return organizationUsers(this.db, organizationId, query);
  }
}
