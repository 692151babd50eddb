import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@filiere/platform';
import type { CommandPipeline, EventStore } from '@filiere/event-store';
import type { PushPublisher } from '@filiere/projections';
import type { Kysely } from 'kysely';
import type { Members } from '../../identity/index.js';
import { isPlatformAuditor, type SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import type { ProductTables } from '../../kernel/tables.js';
import { supplierPush } from './pushes.js';
import { appendSupplierEvent, supplierStreamId, type SUPPLIER_FIELDS } from './catalogue.js';
import {
  clusterOfNewSupplier,
  listScope,
  mayManageInactive,
  mayRead,
  mayWrite,
  SUPPLIER_MESSAGES,
  type Viewer,
} from './domain/reach.js';
import {
  findSupplier,
  listSuppliers,
  replaceDetails,
  suppliersDb,
  supplierWatchers,
  unknownFertilizers,
  type SuppliersDb,
} from './queries.js';
import {
  MSG,
  type CreateSupplierBody,
  type ListQuery,
  type SupplierDto,
  type UpdateSupplierBody,
} from './schemas.js';

export const viewerOf = (actor: SignedInUser): Viewer => ({
  id: actor.id,
  role: actor.role_code,
  clusterId: actor.cluster_id,
});

const fertilizerError = () =>
  new ValidationError(SUPPLIER_MESSAGES.fertilizerNotFound, {
    fields: { fertilizerIds: SUPPLIER_MESSAGES.fertilizerNotFound },
  });

/**
 * Input suppliers: an identity organisation (PROVIDER) + its representative user
 * (ROLE_INPUT_PROVIDER), both created through identity's members (audited on the user's
 * stream), + the `input_suppliers` row, its delivery points and fertilizers, in one
 * transaction. Reach per domain/reach.ts; payout accounts only at registration.
 */
export class SuppliersService {
  private readonly db: SuppliersDb;

  constructor(
    db: Kysely<ProductTables>,
    private readonly members: Members<ProductTables>,
    private readonly commands: CommandPipeline,
    private readonly publish?: PushPublisher,
    private readonly log?: (error: unknown, what: string) => void,
  ) {
    this.db = suppliersDb(db);
  }

  /** Tells those who see the supplier that their list changed (a lost push is only logged). */
  private async changed(supplierId: string, clusterId: string | null): Promise<void> {
    if (!this.publish) return;
    try {
      const userIds = await supplierWatchers(this.db, clusterId);
      if (userIds.length) {
        await this.publish([
          supplierPush({ type: 'actors.supplier.changed', userIds, data: { supplierId } }),
        ]);
      }
    } catch (error) {
      this.log?.(error, 'supplier push not published');
    }
  }

  list(actor: SignedInUser, query: ListQuery, clusterId?: string) {
    const viewer = viewerOf(actor);
    const scope = listScope(viewer);
    if (scope.kind === 'refused') {
      throw new ForbiddenError(scope.message, scope.reason ? { reason: scope.reason } : undefined);
    }
    if (clusterId && scope.kind === 'cluster' && scope.clusterId !== clusterId) {
      throw new ForbiddenError(SUPPLIER_MESSAGES.clusterOutOfReach);
    }
    if (query.status === 'inactive' && !mayManageInactive(viewer)) {
      throw new ForbiddenError(SUPPLIER_MESSAGES.superAdminOnly);
    }
    return listSuppliers(
      this.db,
      query,
      clusterId ?? (scope.kind === 'cluster' ? scope.clusterId : undefined),
    );
  }

  /** 404 when unknown, 403 out of reach. */
  async get(actor: SignedInUser, id: string): Promise<SupplierDto> {
    const found = await findSupplier(this.db, id);
    if (!found) throw new NotFoundError(SUPPLIER_MESSAGES.notFound);
    if (!mayRead(viewerOf(actor), { clusterId: found.clusterId, userId: found.user.id })) {
      throw new ForbiddenError(SUPPLIER_MESSAGES.outOfReach);
    }
    return found;
  }

  /** 404 unless the supplier exists (for readers of every supplier). */
  async exists(id: string): Promise<void> {
    if (!(await findSupplier(this.db, id))) throw new NotFoundError(SUPPLIER_MESSAGES.notFound);
  }

  private async writable(actor: SignedInUser, id: string): Promise<SupplierDto> {
    const found = await findSupplier(this.db, id);
    if (!found) throw new NotFoundError(SUPPLIER_MESSAGES.notFound);
    if (!mayWrite(viewerOf(actor), found.clusterId)) {
      throw new ForbiddenError(SUPPLIER_MESSAGES.outOfReach);
    }
    return found;
  }

  async create(actor: SignedInUser, body: CreateSupplierBody): Promise<SupplierDto> {
    const target = clusterOfNewSupplier(viewerOf(actor), body.clusterId);
    if ('refused' in target) {
      throw new ForbiddenError(
        target.refused,
        target.reason ? { reason: target.reason } : undefined,
      );
    }
    const { clusterId } = target;
    if (clusterId) {
      const cluster = await this.db
        .selectFrom('clusters')
        .select('id')
        .where('id', '=', clusterId)
        .executeTakeFirst();
      if (!cluster) {
        throw new ValidationError(SUPPLIER_MESSAGES.clusterNotFound, {
          fields: { clusterId: SUPPLIER_MESSAGES.clusterNotFound },
        });
      }
    }
    const missing: Record<string, string> = {};
    if (!body.locations.length) missing.locations = MSG.deliveryPoints;
    if (!body.fertilizerIds.length) missing.fertilizerIds = MSG.fertilizers;
    if (Object.keys(missing).length) {
      throw new ValidationError(Object.values(missing)[0]!, { fields: missing });
    }
    if ((await unknownFertilizers(this.db, body.fertilizerIds)).length) throw fertilizerError();
    const { user } = body;
    const id = await this.members.register(
      {
        role: ROLE.INPUT_PROVIDER,
        firstname: user.firstname,
        lastname: user.lastname,
        phone: user.phone,
        email: user.email,
        nip: user.nip,
        clusterId,
        organizationId: null,
        organization: {
          denomination: body.denomination ?? `${user.firstname} ${user.lastname}`,
          type: 'PROVIDER',
          ifu: user.ifu,
        },
        momoAccountNumber: body.momoInfo.momoNumber,
        bankName: body.accountInfo.providerName,
        bankAccountNumber: body.accountInfo.accountNumber,
      },
      actor.id,
      async (trx, registered) => {
        const db = suppliersDb<ProductTables>(trx);
        const row = await db
          .insertInto('input_suppliers')
          .values({
            organization_id: registered.organizationId!,
            user_id: registered.id,
            cluster_id: clusterId,
            rccm: user.rccm,
            ifu: user.ifu,
            created_by: actor.id,
          })
          .returning(['id', 'reference'])
          .executeTakeFirstOrThrow();
        await replaceDetails(db, row.id, {
          locations: body.locations,
          fertilizerIds: body.fertilizerIds,
        });
        await appendSupplierEvent(this.commands, {
          type: 'SupplierRegistered',
          data: {
            supplierId: row.id,
            actorId: actor.id,
            userId: registered.id,
            clusterId,
            reference: row.reference,
            fertilizerIds: [...new Set(body.fertilizerIds)],
            deliveryPoints: body.locations.length,
          },
        });
        return row.id;
      },
    );
    await this.changed(id, clusterId);
    return (await findSupplier(this.db, id))!;
  }

  async update(actor: SignedInUser, id: string, body: UpdateSupplierBody): Promise<SupplierDto> {
    const current = await this.writable(actor, id);
    if (body.fertilizerIds && (await unknownFertilizers(this.db, body.fertilizerIds)).length) {
      throw fertilizerError();
    }
    const { rccm, ifu, ...person } = body.user ?? {};
    if (Object.keys(person).length) {
      await this.members.update(current.user.id, person, actor.id);
    }
    await this.db.transaction().execute(async (trx) => {
      if (body.denomination !== undefined || ifu !== undefined) {
        await trx
          .updateTable('organizations')
          .set({
            ...(body.denomination !== undefined ? { denomination: body.denomination } : {}),
            ...(ifu !== undefined ? { ifu } : {}),
          })
          .where('id', '=', current.organizationId)
          .execute();
      }
      await trx
        .updateTable('input_suppliers')
        .set({
          ...(rccm !== undefined ? { rccm } : {}),
          ...(ifu !== undefined ? { ifu } : {}),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
      await replaceDetails(trx, id, {
        ...(body.locations ? { locations: body.locations } : {}),
        ...(body.fertilizerIds ? { fertilizerIds: body.fertilizerIds } : {}),
      });
      const fields: (typeof SUPPLIER_FIELDS)[number][] = [];
      if (body.denomination !== undefined) fields.push('denomination');
      if (rccm !== undefined) fields.push('rccm');
      if (ifu !== undefined) fields.push('ifu');
      if (body.locations) fields.push('locations');
      if (body.fertilizerIds) fields.push('fertilizers');
      if (fields.length) {
        await appendSupplierEvent(this.commands, {
          type: 'SupplierUpdated',
          data: { supplierId: id, actorId: actor.id, fields },
        });
      }
    });
    await this.changed(id, current.clusterId);
    return (await findSupplier(this.db, id))!;
  }

  /** DELETE: a soft deactivation of the row and of the representative's account. */
  async deactivate(actor: SignedInUser, id: string): Promise<{ message: string }> {
    const current = await this.writable(actor, id);
    if (!current.isActive) throw new ConflictError(SUPPLIER_MESSAGES.alreadyInactive);
    await this.members.setActive(
      current.user.id,
      false,
      actor.id,
      'Fournisseur d’intrant désactivé',
    );
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('input_suppliers')
        .set({ deactivated_at: new Date(), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await appendSupplierEvent(this.commands, {
        type: 'SupplierDeactivated',
        data: { supplierId: id, actorId: actor.id },
      });
    });
    await this.changed(id, current.clusterId);
    return { message: SUPPLIER_MESSAGES.deactivated(nameOf(current)) };
  }

  /** The super admin's reactivation (account and row). */
  async reactivate(actor: SignedInUser, id: string): Promise<{ message: string }> {
    if (!mayManageInactive(viewerOf(actor)))
      throw new ForbiddenError(SUPPLIER_MESSAGES.superAdminOnly);
    const current = await findSupplier(this.db, id);
    if (!current) throw new NotFoundError(SUPPLIER_MESSAGES.notFound);
    if (current.isActive) throw new ConflictError(SUPPLIER_MESSAGES.alreadyActive);
    await this.members.setActive(current.user.id, true, actor.id, 'Fournisseur d’intrant réactivé');
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('input_suppliers')
        .set({ deactivated_at: null, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await appendSupplierEvent(this.commands, {
        type: 'SupplierReactivated',
        data: { supplierId: id, actorId: actor.id },
      });
    });
    await this.changed(id, current.clusterId);
    return { message: SUPPLIER_MESSAGES.reactivated(nameOf(current)) };
  }
}

/** A supplier's audit trail, newest first (404 unknown, 403 out of reach). */
export async function supplierAudit(
  service: SuppliersService,
  store: EventStore,
  actor: SignedInUser,
  id: string,
) {
  // The platform's auditor reads every supplier's trail (auditing is global); the others
  // within their reach (an organisation's accountant has none).
  if (isPlatformAuditor(actor)) await service.exists(id);
  else await service.get(actor, id);
  const events = await store.readStream(supplierStreamId(id));
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

const nameOf = (s: SupplierDto) => `${s.user.firstname} ${s.user.lastname}`;
