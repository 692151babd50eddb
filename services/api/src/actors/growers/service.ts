import {
  BusinessRuleError,
  ForbiddenError,
  narrowDb,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import type { CommandPipeline } from '@filiere/event-store';
import type { PushPublisher } from '@filiere/projections';
import type { Kysely } from 'kysely';
import type { IdentityTables, Members } from '../../identity/index.js';
import { checkLocationChain, type LocationsTables } from '../../locations/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import type { ProductTables } from '../../kernel/tables.js';
import { ROLE } from '../../kernel/roles.js';
import {
  appendGrowerEvents,
  growerEvent,
  growerStreamId,
  type FieldChange,
  type GrowerEvent,
} from './catalogue.js';
import { asksPayoutChange, PAYOUT_CHANGE_MESSAGE } from './domain/payout.js';
import {
  growerScope,
  mayBan,
  mayManageGrower,
  mayReadCluster,
  mayReadGrower,
  mayRegisterIn,
  maySeeInactive,
  maySeePayout,
  REACH_MESSAGES,
  showsCooperative,
  type GrowerActor,
  type GrowerScope,
} from './domain/reach.js';
import type {
  CreateGrowerBody,
  CreatePlotBody,
  GrowerDetailDto,
  GrowerListItemDto,
  PlotDto,
  PlotInput,
  UpdateGrowerBody,
  UpdatePlotBody,
} from './schemas.js';
import { growerPush } from './pushes.js';
import {
  clusterExists,
  findCooperative,
  findGrower,
  findPlot,
  growerDetail,
  growerWatchers,
  listGrowers,
  type GrowerFilter,
  type GrowerRow,
  type GrowersDb,
  type Page,
} from './queries.js';
import type { GrowersTables } from './tables.js';

export const GROWER_MESSAGES = {
  cooperativeNotFound: 'Coopérative introuvable',
  cooperativeInactive: 'Cette coopérative est désactivée',
  cooperativeOtherCluster: 'Cette coopérative n’appartient pas au cluster du producteur',
  clusterNotFound: 'Cluster introuvable',
  inactive: 'Ce producteur est banni : réintégrez-le avant de le modifier',
  banned: 'Producteur banni avec succès',
  reinstated: 'Producteur réintégré avec succès',
  alreadyBanned: 'Ce producteur est déjà banni',
  notBanned: 'Ce producteur n’est pas banni',
  userMismatch: 'Ce producteur n’est pas celui de cet utilisateur',
} as const;

export const actorOf = (user: SignedInUser): GrowerActor => ({
  id: user.id,
  role: user.role_code,
  clusterId: user.cluster_id,
  organizationId: user.organization_id,
});

/** A list query: page from 1, limit (-1: all). */
export interface ListQuery {
  page: number;
  limit: number;
  q?: string | null | undefined;
  status?: 'active' | 'inactive';
}

export const pageOf = (q: ListQuery): Page =>
  q.limit === -1
    ? { offset: 0, limit: undefined }
    : { offset: (q.page - 1) * q.limit, limit: q.limit };

/** Checks a location chain (département → commune → arrondissement → village); field → message. */
export type LocationCheck = (codes: {
  department: string;
  commune: string;
  arrondissement: string;
  village: string;
}) => Promise<{ field: 'department' | 'borough' | 'district' | 'village'; message: string } | null>;

export interface GrowersServiceDeps {
  db: Kysely<ProductTables>;
  commands: CommandPipeline;
  members: Pick<Members<ProductTables>, 'register' | 'update' | 'setActive' | 'member'>;
  publish?: PushPublisher;
  checkLocation?: LocationCheck;
  log?: (error: unknown, what: string) => void;
}

/**
 * A grower `user` may read (its detail, plots, contracts): 404 unknown, 403 out of reach —
 * the contracts' GET grower/contracts/{id} checks reach with it (actors' public face).
 */
export async function requireReadableGrower(
  db: Kysely<ProductTables>,
  user: SignedInUser,
  growerId: string,
): Promise<void> {
  const grower = await findGrower(narrowDb<GrowersTables & IdentityTables>()(db), growerId);
  if (!grower) throw new NotFoundError(REACH_MESSAGES.notFound);
  const actor = actorOf(user);
  scopeOrRefuse(actor);
  if (!mayReadGrower(actor, reachOf(grower))) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
}

/**
 * The user id of a grower `user` may read (`read`) or manage (`manage`): 404 unknown, 403 out
 * of reach — messaging's SMS preferences (read and switched by those who manage growers).
 */
export async function growerUserInReach(
  db: Kysely<ProductTables>,
  user: SignedInUser,
  growerId: string,
  need: 'read' | 'manage',
): Promise<string> {
  const grower = await findGrower(narrowDb<GrowersTables & IdentityTables>()(db), growerId);
  if (!grower) throw new NotFoundError(REACH_MESSAGES.notFound);
  const actor = actorOf(user);
  scopeOrRefuse(actor);
  const may = need === 'read' ? mayReadGrower : mayManageGrower;
  if (!may(actor, reachOf(grower))) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
  return grower.user_id;
}

function scopeOrRefuse(actor: GrowerActor): Exclude<GrowerScope, { kind: 'none' }> {
  const scope = growerScope(actor);
  if (scope.kind !== 'none') return scope;
  if (scope.reason === 'NO_CLUSTER') {
    throw new ForbiddenError(REACH_MESSAGES.noCluster, { reason: 'NO_CLUSTER' });
  }
  if (scope.reason === 'NO_ORGANIZATION') {
    throw new ForbiddenError(REACH_MESSAGES.noOrganization, { reason: 'NO_ORGANIZATION' });
  }
  throw new ForbiddenError(REACH_MESSAGES.forbidden);
}

const fieldsError = (fields: Record<string, string>) =>
  new ValidationError(Object.values(fields)[0]!, { fields });

/** Growers and plots: the rules of domain/, the rows of queries.ts, users through identity. */
export class GrowersService {
  private readonly db: GrowersDb;

  private readonly checkLocation: LocationCheck;

  constructor(private readonly deps: GrowersServiceDeps) {
    this.db = narrowDb<GrowersTables & IdentityTables>()(deps.db);
    this.checkLocation = deps.checkLocation ?? locationsCheck(deps.db);
  }

  // ------------------------------------------------------------------ reads

  private activeOf(actor: GrowerActor, status: ListQuery['status']): boolean {
    if (status !== 'inactive') return true;
    if (!maySeeInactive(actor)) throw new ForbiddenError(REACH_MESSAGES.inactiveList);
    return false;
  }

  private list(
    actor: GrowerActor,
    query: ListQuery,
    extra: Partial<GrowerFilter> = {},
  ): Promise<{ data: GrowerListItemDto[]; count: number }> {
    const filter: GrowerFilter = {
      scope: scopeOrRefuse(actor),
      active: this.activeOf(actor, query.status),
      q: query.q,
      ...extra,
    };
    return listGrowers(this.db, filter, pageOf(query), showsCooperative(actor));
  }

  /** GET grower: the caller's reach, newest first, searched by name, phone or reference. */
  listGrowers(actor: GrowerActor, query: ListQuery) {
    return this.list(actor, query);
  }

  /** GET grower/download/{x}: what the caller's list shows (same reach, search and status). */
  downloadFilter(
    actor: GrowerActor,
    query: { q?: string | null | undefined; status?: 'active' | 'inactive' },
  ): GrowerFilter & { withCooperative: boolean; withPayout: boolean } {
    return {
      scope: scopeOrRefuse(actor),
      active: this.activeOf(actor, query.status),
      q: query.q,
      withCooperative: showsCooperative(actor),
      withPayout: maySeePayout(actor),
    };
  }

  /** GET grower/cluster/{id}. */
  async clusterGrowers(actor: GrowerActor, clusterId: string, query: ListQuery) {
    scopeOrRefuse(actor);
    if (!(await clusterExists(this.db, clusterId))) {
      throw new NotFoundError(GROWER_MESSAGES.clusterNotFound);
    }
    if (!mayReadCluster(actor, clusterId)) {
      throw new ForbiddenError(REACH_MESSAGES.clusterOutOfReach);
    }
    return this.list(actor, query, { clusterId });
  }

  /** GET grower/no-cooperative: a cluster's growers without cooperative (cluster configuration). */
  async withoutCooperative(
    actor: GrowerActor,
    query: ListQuery & { clusterId?: string | null | undefined },
  ) {
    const scope = scopeOrRefuse(actor);
    const clusterId = query.clusterId ?? (scope.kind === 'cluster' ? scope.clusterId : undefined);
    if (clusterId) {
      if (!(await clusterExists(this.db, clusterId))) {
        throw new NotFoundError(GROWER_MESSAGES.clusterNotFound);
      }
      if (!mayReadCluster(actor, clusterId)) {
        throw new ForbiddenError(REACH_MESSAGES.clusterOutOfReach);
      }
    }
    return this.list(actor, query, {
      withoutCooperative: true,
      ...(clusterId ? { clusterId } : {}),
    });
  }

  /** GET farmer-organization/{id}/growers: a cooperative's growers within the caller's reach. */
  async cooperativeGrowers(actor: GrowerActor, cooperativeId: string, query: ListQuery) {
    const scope = scopeOrRefuse(actor);
    const cooperative = await findCooperative(this.db, cooperativeId);
    if (!cooperative) throw new NotFoundError(GROWER_MESSAGES.cooperativeNotFound);
    if (scope.kind === 'cooperative' && scope.cooperativeId !== cooperativeId) {
      throw new ForbiddenError(REACH_MESSAGES.cooperativeOutOfReach);
    }
    if (
      scope.kind === 'cluster' &&
      cooperative.clusterId !== null &&
      cooperative.clusterId !== scope.clusterId
    ) {
      throw new ForbiddenError(REACH_MESSAGES.cooperativeOutOfReach);
    }
    return this.list(actor, query, { cooperativeId });
  }

  /** A grower the caller may read: 404 unknown, 403 out of reach. */
  private async readable(actor: GrowerActor, id: string): Promise<GrowerRow> {
    const grower = await findGrower(this.db, id);
    if (!grower) throw new NotFoundError(REACH_MESSAGES.notFound);
    scopeOrRefuse(actor);
    if (!mayReadGrower(actor, reachOf(grower))) {
      throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    }
    return grower;
  }

  /** GET grower/{id}. */
  async detail(actor: GrowerActor, id: string): Promise<GrowerDetailDto> {
    await this.readable(actor, id);
    return (await growerDetail(this.db, id, maySeePayout(actor)))!;
  }

  /**
   * GET grower/{id}/audit: the grower's own trail (registered, changed, plots, banned,
   * reinstated), newest first, with who and when; its user's trail is identity's
   * GET users/{userId}/audit.
   */
  async audit(
    actor: GrowerActor,
    id: string,
    read: (
      streamId: string,
    ) => Promise<{ position: number; type: string; recordedAt: Date; data: unknown }[]>,
  ) {
    const grower = await this.readable(actor, id);
    if (!mayManageGrower(actor, reachOf(grower)))
      throw new ForbiddenError(REACH_MESSAGES.forbidden);
    const events = await read(growerStreamId(id));
    const data = [...events].reverse().map((e) => {
      const payload = e.data as Record<string, unknown> & { actorId?: string };
      return {
        position: e.position,
        type: e.type,
        recordedAt: e.recordedAt.toISOString(),
        actorId: payload.actorId ?? null,
        data: payload,
      };
    });
    return { data, count: data.length };
  }

  /** A grower the caller may edit (and its plots): 404, 403, or the row. */
  private async manageable(actor: GrowerActor, id: string): Promise<GrowerRow> {
    const grower = await this.readable(actor, id);
    if (!mayManageGrower(actor, reachOf(grower)))
      throw new ForbiddenError(REACH_MESSAGES.forbidden);
    return grower;
  }

  // ------------------------------------------------------------------ writes

  private async checkAddress(
    codes: { department: string; borough: string; district: string; village: string },
    prefix: string,
  ): Promise<void> {
    const wrong = await this.checkLocation({
      department: codes.department,
      commune: codes.borough,
      arrondissement: codes.district,
      village: codes.village,
    });
    if (wrong) throw fieldsError({ [`${prefix}${wrong.field}`]: wrong.message });
  }

  private async checkCooperative(cooperativeId: string | null, clusterId: string) {
    if (!cooperativeId) return;
    const cooperative = await findCooperative(this.db, cooperativeId);
    if (!cooperative) {
      throw fieldsError({ farmerOrganizationId: GROWER_MESSAGES.cooperativeNotFound });
    }
    if (cooperative.deactivated) {
      throw fieldsError({ farmerOrganizationId: GROWER_MESSAGES.cooperativeInactive });
    }
    if (cooperative.clusterId !== null && cooperative.clusterId !== clusterId) {
      throw fieldsError({ farmerOrganizationId: GROWER_MESSAGES.cooperativeOtherCluster });
    }
  }

  /** POST grower/cluster/{clusterId}: the user (identity), the grower and its plots, at once. */
  async create(
    actor: GrowerActor,
    clusterId: string,
    body: CreateGrowerBody,
  ): Promise<GrowerDetailDto> {
    if (!(await clusterExists(this.db, clusterId))) {
      throw new NotFoundError(GROWER_MESSAGES.clusterNotFound);
    }
    if (!mayRegisterIn(actor, clusterId)) {
      scopeOrRefuse(actor);
      throw new ForbiddenError(REACH_MESSAGES.clusterOutOfReach);
    }
    await this.checkAddress(body.user, 'user.');
    for (const [i, plot] of body.products.entries()) {
      await this.checkAddress(plot, `products.${i}.`);
    }
    const cooperativeId = body.farmerOrganizationId ?? null;
    await this.checkCooperative(cooperativeId, clusterId);
    const { user } = body;
    const growerId = await this.deps.members.register(
      {
        role: ROLE.GROWER,
        firstname: user.firstname,
        lastname: user.lastname,
        phone: user.phone,
        email: user.email ?? null,
        nip: user.nip ?? null,
        clusterId,
        organizationId: null,
        momoAccountNumber: body.momoInfo.momoNumber,
        bankName: body.accountInfo.providerName ?? null,
        bankAccountNumber: body.accountInfo.accountNumber ?? null,
      },
      actor.id,
      async (trx, registered) => {
        const db = narrowDb<GrowersTables>()<ProductTables>(trx);
        const grower = await db
          .insertInto('growers')
          .values({
            user_id: registered.id,
            cluster_id: clusterId,
            cooperative_id: cooperativeId,
            sub_cooperative: body.grower.subCooperative ?? null,
            address: body.grower.address ?? null,
            department_code: user.department,
            commune_code: user.borough,
            arrondissement_code: user.district,
            village_code: user.village,
            contact_fullname: user.contactFullname ?? null,
            contact_phone: user.contactPhone ?? null,
            created_by: actor.id,
          })
          .returning(['id', 'reference'])
          .executeTakeFirstOrThrow();
        const plotIds: string[] = [];
        const plots: { plotId: string; areaSown: number }[] = [];
        for (const plot of body.products) {
          const row = await db
            .insertInto('plots')
            .values({ grower_id: grower.id, created_by: actor.id, ...plotValues(plot) })
            .returning('id')
            .executeTakeFirstOrThrow();
          plotIds.push(row.id);
          plots.push({ plotId: row.id, areaSown: plot.areaSown });
        }
        await appendGrowerEvents(this.deps.commands, grower.id, actor.id, [
          growerEvent('GrowerRegistered', {
            growerId: grower.id,
            userId: registered.id,
            actorId: actor.id,
            reference: grower.reference,
            clusterId,
            cooperativeId,
            villageCode: user.village,
            plotIds,
            plots,
          }),
        ]);
        return grower.id;
      },
    );
    await this.changed({ clusterId, cooperativeId }, growerId);
    return (await growerDetail(this.db, growerId, true))!;
  }

  /**
   * PATCH grower/{id}: names, NIP, phone, e-mail through identity (audited on the user's
   * stream); address, contact, cooperative here (audited on the grower's). A different payout
   * account is refused: it is a request approved by a super admin.
   */
  async update(actor: GrowerActor, id: string, body: UpdateGrowerBody): Promise<GrowerDetailDto> {
    const grower = await this.manageable(actor, id);
    if (grower.deactivated_at) throw new BusinessRuleError(GROWER_MESSAGES.inactive);
    if (body.accountInfo || body.momoInfo) {
      const member = await this.deps.members.member(grower.user_id);
      const current = {
        momoAccountNumber: member?.momoAccountNumber ?? null,
        bankName: member?.bankName ?? null,
        bankAccountNumber: member?.bankAccountNumber ?? null,
      };
      if (asksPayoutChange(current, body)) {
        throw new ForbiddenError(PAYOUT_CHANGE_MESSAGE, { reason: 'PAYOUT_CHANGE_NEEDS_REQUEST' });
      }
    }
    const user = body.user ?? {};
    const address =
      user.department !== undefined
        ? {
            department: user.department,
            borough: user.borough!,
            district: user.district!,
            village: user.village!,
          }
        : undefined;
    if (address) await this.checkAddress(address, 'user.');
    if (body.farmerOrganizationId !== undefined) {
      await this.checkCooperative(body.farmerOrganizationId, grower.cluster_id);
    }
    const patch = {
      ...(user.firstname !== undefined ? { firstname: user.firstname } : {}),
      ...(user.lastname !== undefined ? { lastname: user.lastname } : {}),
      ...(user.nip !== undefined ? { nip: user.nip } : {}),
      ...(user.phone !== undefined ? { phone: user.phone } : {}),
      ...(user.email !== undefined ? { email: user.email } : {}),
    };
    if (Object.keys(patch).length) await this.deps.members.update(grower.user_id, patch, actor.id);

    const next: Partial<Record<keyof GrowerRow, string | null>> = {};
    if (address) {
      next.department_code = address.department;
      next.commune_code = address.borough;
      next.arrondissement_code = address.district;
      next.village_code = address.village;
    }
    if (user.contactFullname !== undefined) next.contact_fullname = user.contactFullname;
    if (user.contactPhone !== undefined) next.contact_phone = user.contactPhone;
    if (body.grower?.address !== undefined) next.address = body.grower.address;
    if (body.grower?.subCooperative !== undefined)
      next.sub_cooperative = body.grower.subCooperative;
    if (body.farmerOrganizationId !== undefined) next.cooperative_id = body.farmerOrganizationId;

    const changes = await this.db.transaction().execute(async (trx) => {
      const locked = (await findGrower(trx, id, { forUpdate: true }))!;
      const changes: FieldChange[] = [];
      const values: Record<string, string | null> = {};
      for (const [column, to] of Object.entries(next) as [keyof GrowerRow, string | null][]) {
        const from = locked[column] as string | null;
        if (from === to) continue;
        values[column] = to;
        changes.push({ field: column, from, to });
      }
      if (!changes.length) return changes;
      await trx
        .updateTable('growers')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await appendGrowerEvents(this.deps.commands, id, actor.id, [
        growerEvent('GrowerChanged', { growerId: id, actorId: actor.id, changes }),
      ]);
      return changes;
    });
    const cooperativeId = (next.cooperative_id ?? grower.cooperative_id) as string | null;
    if (changes.length || Object.keys(patch).length) {
      await this.changed({ clusterId: grower.cluster_id, cooperativeId }, id);
      if (grower.cooperative_id && grower.cooperative_id !== cooperativeId) {
        await this.changed(
          { clusterId: grower.cluster_id, cooperativeId: grower.cooperative_id },
          id,
        );
      }
    }
    return (await growerDetail(this.db, id, true))!;
  }

  /**
   * Ban (DELETE grower/{id}, GET users/{userId}/bannish-grower/{growerId}) or reinstate: the
   * grower's user is deactivated through identity (tokens revoked, audited), the row marked.
   */
  async setActive(
    actor: GrowerActor,
    id: string,
    active: boolean,
    expectedUserId?: string,
  ): Promise<{ message: string }> {
    const grower = await this.readable(actor, id);
    if (!mayBan(actor)) throw new ForbiddenError(REACH_MESSAGES.forbidden);
    if (expectedUserId && expectedUserId !== grower.user_id) {
      throw new NotFoundError(GROWER_MESSAGES.userMismatch);
    }
    if (active === (grower.deactivated_at === null)) {
      throw new BusinessRuleError(
        active ? GROWER_MESSAGES.notBanned : GROWER_MESSAGES.alreadyBanned,
      );
    }
    await this.deps.members.setActive(
      grower.user_id,
      active,
      actor.id,
      active ? undefined : 'Producteur banni',
    );
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('growers')
        .set({ deactivated_at: active ? null : new Date(), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      const event: GrowerEvent = active
        ? growerEvent('GrowerReactivated', { growerId: id, actorId: actor.id })
        : growerEvent('GrowerDeactivated', { growerId: id, actorId: actor.id });
      await appendGrowerEvents(this.deps.commands, id, actor.id, [event]);
    });
    await this.changed(reachOf(grower), id);
    return { message: active ? GROWER_MESSAGES.reinstated : GROWER_MESSAGES.banned };
  }

  /** POST product: a plot of a grower in reach. */
  async addPlot(actor: GrowerActor, body: CreatePlotBody): Promise<PlotDto> {
    const grower = await this.manageable(actor, body.growerId).catch((error: unknown) => {
      // The grower is named in the body: an unknown one is a field error.
      if (error instanceof NotFoundError) {
        throw fieldsError({ growerId: REACH_MESSAGES.notFound });
      }
      throw error;
    });
    if (grower.deactivated_at) throw new BusinessRuleError(GROWER_MESSAGES.inactive);
    await this.checkAddress(body, '');
    const { growerId, ...plot } = body;
    const plotId = await this.db.transaction().execute(async (trx) => {
      await findGrower(trx, growerId, { forUpdate: true });
      const row = await trx
        .insertInto('plots')
        .values({ grower_id: growerId, created_by: actor.id, ...plotValues(plot) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await appendGrowerEvents(this.deps.commands, growerId, actor.id, [
        growerEvent('PlotAdded', {
          growerId,
          plotId: row.id,
          actorId: actor.id,
          productType: plot.productType,
          villageCode: plot.village,
          name: plot.location,
          areaSown: plot.areaSown,
        }),
      ]);
      return row.id;
    });
    await this.changed(reachOf(grower), growerId);
    return stripReach((await findPlot(this.db, plotId))!);
  }

  /** PATCH product/{id}. */
  async updatePlot(actor: GrowerActor, id: string, body: UpdatePlotBody): Promise<PlotDto> {
    const plot = await findPlot(this.db, id);
    if (!plot) throw new NotFoundError(REACH_MESSAGES.plotNotFound);
    const grower = await this.manageable(actor, plot.growerId);
    if (grower.deactivated_at) throw new BusinessRuleError(GROWER_MESSAGES.inactive);
    if (body.department !== undefined) {
      await this.checkAddress(
        {
          department: body.department,
          borough: body.borough!,
          district: body.district!,
          village: body.village!,
        },
        '',
      );
    }
    const before: Record<string, string | number | null> = {
      product_type: plot.productType,
      department_code: plot.department,
      commune_code: plot.borough,
      arrondissement_code: plot.district,
      village_code: plot.village,
      name: plot.location,
      address: plot.address,
      latitude: plot.latitude,
      longitude: plot.longitude,
      planting_date: plot.plantingDate,
      tif_date: plot.tifDate,
      area_sown: plot.areaSown,
      estimated_production: plot.estimatedProduction,
    };
    const after = plotValues(body);
    const changes: FieldChange[] = [];
    const values: Record<string, string | number | null> = {};
    for (const [column, to] of Object.entries(after)) {
      if (to === undefined) continue;
      const from = before[column] ?? null;
      if (from === to) continue;
      values[column] = to;
      changes.push({ field: column, from, to });
    }
    if (changes.length) {
      await this.db.transaction().execute(async (trx) => {
        await findGrower(trx, plot.growerId, { forUpdate: true });
        await trx
          .updateTable('plots')
          .set({ ...values, updated_at: new Date() })
          .where('id', '=', id)
          .execute();
        await appendGrowerEvents(this.deps.commands, plot.growerId, actor.id, [
          growerEvent('PlotChanged', {
            growerId: plot.growerId,
            plotId: id,
            actorId: actor.id,
            changes,
          }),
        ]);
      });
      await this.changed(reachOf(grower), plot.growerId);
    }
    return stripReach((await findPlot(this.db, id))!);
  }

  /** Tells those who see the grower that their list changed (a lost push is only logged). */
  private async changed(
    grower: { clusterId: string; cooperativeId: string | null },
    growerId: string,
  ): Promise<void> {
    if (!this.deps.publish) return;
    try {
      const userIds = await growerWatchers(this.db, grower);
      if (userIds.length) {
        await this.deps.publish([
          growerPush({ type: 'actors.grower.changed', userIds, data: { growerId } }),
        ]);
      }
    } catch (error) {
      this.deps.log?.(error, 'grower push not published');
    }
  }
}

/** The spec's names of the location levels (borough = commune, district = arrondissement). */
const SPEC_FIELDS = {
  department: 'department',
  commune: 'borough',
  arrondissement: 'district',
  village: 'village',
} as const;

/** The chain check of the locations context: unknown codes, places outside their parent. */
export function locationsCheck(pool: Kysely<ProductTables>): LocationCheck {
  const db = narrowDb<LocationsTables>()(pool);
  return async (codes) => {
    const found = await checkLocationChain(db, codes);
    return found.ok ? null : { field: SPEC_FIELDS[found.field], message: found.message };
  };
}

const reachOf = (g: GrowerRow) => ({ clusterId: g.cluster_id, cooperativeId: g.cooperative_id });

const stripReach = ({
  clusterId: _c,
  cooperativeId: _o,
  ...plot
}: PlotDto & { clusterId: string; cooperativeId: string | null }): PlotDto => plot;

/** A plot's columns from its fields (absent fields stay absent, for a partial update). */
function plotValues(plot: Partial<PlotInput>) {
  const values = {
    product_type: plot.productType,
    department_code: plot.department,
    commune_code: plot.borough,
    arrondissement_code: plot.district,
    village_code: plot.village,
    name: plot.location,
    address: plot.address,
    latitude: plot.latitude,
    longitude: plot.longitude,
    planting_date: plot.plantingDate,
    tif_date: plot.tifDate,
    area_sown: plot.areaSown,
    estimated_production: plot.estimatedProduction,
  };
  return values as {
    product_type: 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE';
    department_code: string;
    commune_code: string;
    arrondissement_code: string;
    village_code: string;
    name: string;
    address: string | null | undefined;
    latitude: number | null | undefined;
    longitude: number | null | undefined;
    planting_date: string | null | undefined;
    tif_date: string | null | undefined;
    area_sown: number;
    estimated_production: number | null | undefined;
  };
}
