import type { Kysely, Transaction } from 'kysely';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@filiere/platform';
import type { Members } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import type { ProductTables } from '../../kernel/tables.js';
import type { PushPublisher } from '@filiere/projections';
import { actorPush, publishChange } from '../cooperatives/pushes.js';
import { assertLocationChain } from '../../locations/index.js';
import {
  mayReadOrganization,
  mayWrite,
  reaches,
  REACH_MESSAGES,
  type Viewer,
} from '../cooperatives/domain/reach.js';
import { cooperativesDb, findOrganization } from '../cooperatives/queries.js';
import { scopeOrThrow, viewerOf } from '../cooperatives/service.js';
import { repeatedRegistration, vehiclesOf, type Vehicle } from './domain/vehicles.js';
import { carriersDb, findCarrier, listCarriers, type CarriersDb } from './queries.js';
import type { CarrierDto, CreateCarrierBody, ListQuery, UpdateCarrierBody } from './schemas.js';

export const CARRIER_MESSAGES = {
  notFound: 'Transporteur introuvable',
  clusterRequired: 'Choisissez le cluster du transporteur',
  clusterNotFound: 'Cluster introuvable',
  organization: 'Cette coopérative n’existe pas dans le cluster du transporteur',
  alreadyInactive: 'Ce transporteur est déjà désactivé',
  alreadyActive: 'Ce transporteur est déjà actif',
  registrationTaken: (registration: string) =>
    `L’immatriculation ${registration} est déjà utilisée par un autre véhicule`,
  registrationRepeated: 'Deux véhicules ne peuvent pas avoir la même immatriculation',
  deactivated: (name: string) => `Le transporteur ${name} est désactivé. Il pourra être réactivé`,
} as const;

const LOCATION_PATHS = {
  department: 'user.department',
  commune: 'user.borough',
  arrondissement: 'user.district',
  village: 'user.village',
} as const;

/** PostgreSQL unique violation of a vehicle's registration (a race past the check). */
const isDuplicateRegistration = (error: unknown) => {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'vehicles_registration_unique';
};

/**
 * Carriers: a ROLE_CARRIER user (username = phone, created through identity's members) +
 * the `carriers` row + its vehicles, in one transaction. Reach as the cooperatives'
 * (domain/reach.ts); DELETE is a deactivation, reactivated by the staff in reach.
 */
export class CarriersService {
  private readonly db: CarriersDb;

  constructor(
    private readonly pool: Kysely<ProductTables>,
    private readonly members: Members<ProductTables>,
    private readonly publish?: PushPublisher,
    private readonly log?: (error: unknown) => void,
  ) {
    this.db = carriersDb(pool);
  }

  /** Tells those who see the carrier that their list changed. */
  private changed(carrier: CarrierDto): Promise<void> {
    return publishChange(
      {
        pool: this.pool,
        ...(this.publish ? { publish: this.publish } : {}),
        ...(this.log ? { log: this.log } : {}),
      },
      carrier.clusterId,
      (userIds) =>
        actorPush({ type: 'actors.carrier.changed', userIds, data: { carrierId: carrier.id } }),
    );
  }

  list(actor: SignedInUser, query: ListQuery) {
    const scope = scopeOrThrow(viewerOf(actor));
    return listCarriers(this.db, scope, query);
  }

  async get(actor: SignedInUser, id: string): Promise<CarrierDto> {
    const found = await findCarrier(this.db, id);
    if (!found) throw new NotFoundError(CARRIER_MESSAGES.notFound);
    const viewer = viewerOf(actor);
    scopeOrThrow(viewer);
    if (!reaches(viewer, found.clusterId)) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    return found;
  }

  private async writable(actor: SignedInUser, id: string) {
    const found = await this.get(actor, id);
    if (!mayWrite(viewerOf(actor), found.clusterId)) {
      throw new ForbiddenError(REACH_MESSAGES.forbidden);
    }
    return found;
  }

  /** The cluster of a new carrier: the one named (administrators) or the manager's own. */
  private async clusterFor(viewer: Viewer, clusterId: string | null | undefined) {
    const chosen = clusterId ?? viewer.clusterId;
    if (!chosen) {
      throw new ValidationError(CARRIER_MESSAGES.clusterRequired, {
        fields: { clusterId: CARRIER_MESSAGES.clusterRequired },
      });
    }
    const cluster = await this.db
      .selectFrom('clusters')
      .select('id')
      .where('id', '=', chosen)
      .executeTakeFirst();
    if (!cluster) throw new NotFoundError(CARRIER_MESSAGES.clusterNotFound);
    if (!mayWrite(viewer, chosen)) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    return chosen;
  }

  async create(actor: SignedInUser, body: CreateCarrierBody): Promise<CarrierDto> {
    const viewer = viewerOf(actor);
    scopeOrThrow(viewer);
    const clusterId = await this.clusterFor(viewer, body.clusterId);
    const u = body.user;
    await assertLocationChain(
      this.pool,
      {
        department: u.department,
        commune: u.borough,
        arrondissement: u.district,
        village: u.village,
      },
      LOCATION_PATHS,
    );
    if (body.organizationId) {
      const coop = await this.db
        .selectFrom('cooperatives')
        .select('organization_id')
        .where('organization_id', '=', body.organizationId)
        .where('cluster_id', '=', clusterId)
        .executeTakeFirst();
      if (!coop) {
        throw new ValidationError(CARRIER_MESSAGES.organization, {
          fields: { organizationId: CARRIER_MESSAGES.organization },
        });
      }
    }
    const vehicles = this.checkedVehicles(body.cars);
    const id = await this.conflicts(() =>
      this.members.register(
        {
          role: ROLE.CARRIER,
          firstname: u.firstname,
          lastname: u.lastname,
          phone: u.phone,
          email: u.email ?? null,
          nip: u.nip ?? null,
          clusterId,
          organizationId: null,
          momoAccountNumber: body.momoInfo.momoNumber,
          bankName: body.accountInfo.providerName,
          bankAccountNumber: body.accountInfo.accountNumber,
        },
        actor.id,
        async (trx, user) => {
          const row = await carriersDb<ProductTables>(trx)
            .insertInto('carriers')
            .values({
              user_id: user.id,
              cluster_id: clusterId,
              organization_id: body.organizationId ?? null,
              address: body.carrier.address,
              department_code: u.department,
              commune_code: u.borough,
              arrondissement_code: u.district,
              village_code: u.village,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await this.replaceVehicles(trx, row.id, vehicles);
          return row.id;
        },
      ),
    );
    const saved = (await findCarrier(this.db, id))!;
    await this.changed(saved);
    return saved;
  }

  async update(actor: SignedInUser, id: string, body: UpdateCarrierBody): Promise<CarrierDto> {
    const current = await this.writable(actor, id);
    const u = body.user ?? {};
    const location = {
      department: u.department ?? current.user.department,
      commune: u.borough ?? current.user.borough,
      arrondissement: u.district ?? current.user.district,
      village: u.village ?? current.user.village,
    };
    if (u.department || u.borough || u.district || u.village) {
      await assertLocationChain(this.pool, location, LOCATION_PATHS);
    }
    const vehicles = body.cars ? this.checkedVehicles(body.cars) : undefined;
    const person = {
      ...(u.firstname !== undefined ? { firstname: u.firstname } : {}),
      ...(u.lastname !== undefined ? { lastname: u.lastname } : {}),
      ...(u.nip !== undefined ? { nip: u.nip } : {}),
      ...(u.phone !== undefined ? { phone: u.phone } : {}),
      ...(u.email !== undefined ? { email: u.email } : {}),
    };
    if (Object.keys(person).length) await this.members.update(current.userId, person, actor.id);
    await this.conflicts(() =>
      this.pool.transaction().execute(async (trx) => {
        await carriersDb<ProductTables>(trx)
          .updateTable('carriers')
          .set({
            address: body.carrier?.address ?? current.carrier.address,
            department_code: location.department,
            commune_code: location.commune,
            arrondissement_code: location.arrondissement,
            village_code: location.village,
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .execute();
        if (vehicles) await this.replaceVehicles(trx, id, vehicles);
      }),
    );
    const saved = (await findCarrier(this.db, id))!;
    await this.changed(saved);
    return saved;
  }

  /** DELETE: the spec's deactivation, of the carrier and its account. */
  async deactivate(actor: SignedInUser, id: string): Promise<{ message: string }> {
    const current = await this.writable(actor, id);
    if (!current.isActive) throw new ConflictError(CARRIER_MESSAGES.alreadyInactive);
    await this.members.setActive(current.userId, false, actor.id, 'Transporteur désactivé', (trx) =>
      this.setDeactivated(trx, id, new Date()),
    );
    await this.changed(current);
    const name = `${current.user.firstname} ${current.user.lastname}`;
    return { message: CARRIER_MESSAGES.deactivated(name) };
  }

  async reactivate(actor: SignedInUser, id: string): Promise<CarrierDto> {
    const current = await this.writable(actor, id);
    if (current.isActive) throw new ConflictError(CARRIER_MESSAGES.alreadyActive);
    await this.members.setActive(current.userId, true, actor.id, 'Transporteur réactivé', (trx) =>
      this.setDeactivated(trx, id, null),
    );
    const saved = (await findCarrier(this.db, id))!;
    await this.changed(saved);
    return saved;
  }

  /** GET organization/{id}/carriers. */
  async ofOrganization(actor: SignedInUser, organizationId: string, query: ListQuery) {
    const found = await findOrganization(cooperativesDb(this.pool), organizationId);
    if (!found) throw new NotFoundError('Organisation introuvable');
    const viewer = viewerOf(actor);
    if (!mayReadOrganization(viewer, { id: found.id, clusterId: found.cluster_id })) {
      throw new ForbiddenError(REACH_MESSAGES.outOfReach);
    }
    return listCarriers(this.db, { kind: 'all' }, query, organizationId);
  }

  private async setDeactivated(trx: Transaction<ProductTables>, id: string, at: Date | null) {
    await carriersDb<ProductTables>(trx)
      .updateTable('carriers')
      .set({ deactivated_at: at, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  private checkedVehicles(cars: CreateCarrierBody['cars']): Vehicle[] {
    const vehicles = vehiclesOf(cars);
    const repeated = repeatedRegistration(vehicles);
    if (repeated >= 0) {
      throw new ValidationError(CARRIER_MESSAGES.registrationRepeated, {
        fields: { [`cars.${repeated}.registration`]: CARRIER_MESSAGES.registrationRepeated },
      });
    }
    return vehicles;
  }

  /** The carrier's vehicles become `vehicles`; a registration of another carrier's → 409. */
  private async replaceVehicles(
    trx: Kysely<ProductTables>,
    carrierId: string,
    vehicles: Vehicle[],
  ) {
    const db = carriersDb<ProductTables>(trx);
    if (vehicles.length) {
      const taken = await db
        .selectFrom('vehicles')
        .select('registration')
        .where(
          'registration',
          'in',
          vehicles.map((v) => v.registration),
        )
        .where('carrier_id', '!=', carrierId)
        .executeTakeFirst();
      if (taken) {
        const index = vehicles.findIndex((v) => v.registration === taken.registration);
        const message = CARRIER_MESSAGES.registrationTaken(taken.registration);
        throw new ConflictError(message, {
          reason: 'REGISTRATION_ALREADY_EXIST',
          fields: { [`cars.${index}.registration`]: message },
        });
      }
    }
    await db.deleteFrom('vehicles').where('carrier_id', '=', carrierId).execute();
    if (vehicles.length) {
      await db
        .insertInto('vehicles')
        .values(
          vehicles.map((v) => ({
            carrier_id: carrierId,
            car_type: v.carType,
            registration: v.registration,
            empty_weight: v.emptyWeight,
            capacity: v.capacity,
          })),
        )
        .execute();
    }
  }

  private async conflicts<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isDuplicateRegistration(error)) {
        throw new ConflictError('Cette immatriculation est déjà utilisée par un autre véhicule', {
          reason: 'REGISTRATION_ALREADY_EXIST',
        });
      }
      throw error;
    }
  }
}

/**
 * The carrier's page reach, for its contracts tab (served by the contracts context, which owns
 * carriage contracts): 404 unknown, 403 out of the caller's cluster.
 */
export async function requireReadableCarrier(
  pool: Kysely<ProductTables>,
  actor: SignedInUser,
  id: string,
): Promise<void> {
  const found = await findCarrier(carriersDb(pool), id);
  if (!found) throw new NotFoundError(CARRIER_MESSAGES.notFound);
  const viewer = viewerOf(actor);
  scopeOrThrow(viewer);
  if (!reaches(viewer, found.clusterId)) throw new ForbiddenError(REACH_MESSAGES.outOfReach);
}
