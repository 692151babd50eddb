import { sql, type Kysely } from 'kysely';
import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { isoDay } from '../queries.js';
import { CARRIAGE_MESSAGES, type CarriageStatus } from './domain/carriage.js';
import type { CarriageTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

export type CarriageQueryTables = CarriageTables &
  Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'carriers'>;

export interface CarriageRow {
  id: string;
  reference: string;
  status: CarriageStatus;
  transportDate: string;
  amount: number;
  description: string | null;
  createdAt: string;
  aggregator: { id: string; firstname: string; lastname: string };
  carrier: {
    id: string;
    userId: string;
    firstname: string;
    lastname: string;
    phone: string | null;
  };
  vehicle: { id: string; carType: string; registration: string };
}

export interface CarriageListQuery {
  page: number;
  limit: number;
  q?: string | undefined;
  status?: CarriageStatus | undefined;
}

type Scope =
  | { kind: 'all' }
  | { kind: 'aggregator'; userId: string }
  | { kind: 'carrierUser'; userId: string }
  | { kind: 'carrier'; carrierId: string };

const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const isAdmin = (user: SignedInUser) =>
  user.role_code === ROLE.ADMIN || user.role_code === ROLE.SUPER_ADMIN;

/** The carriage contracts' reads: the aggregator its own, the carrier its own, admins all. */
export class CarriageQueries {
  constructor(private readonly db: Kysely<CarriageQueryTables>) {}

  private scopeOf(user: SignedInUser): Scope {
    if (isAdmin(user)) return { kind: 'all' };
    if (user.role_code === ROLE.CARRIER) return { kind: 'carrierUser', userId: user.id };
    return { kind: 'aggregator', userId: user.id };
  }

  private base() {
    return this.db
      .selectFrom('carriage_contracts as c')
      .innerJoin(identityUsers().as('a'), 'a.id', 'c.aggregator_user_id')
      .innerJoin(identityUsers().as('u'), 'u.id', 'c.carrier_user_id');
  }

  private async page(scope: Scope, query: CarriageListQuery) {
    let base = this.base();
    if (scope.kind === 'aggregator') base = base.where('c.aggregator_user_id', '=', scope.userId);
    if (scope.kind === 'carrierUser') base = base.where('c.carrier_user_id', '=', scope.userId);
    if (scope.kind === 'carrier') base = base.where('c.carrier_id', '=', scope.carrierId);
    if (query.status) base = base.where('c.status', '=', query.status);
    const q = query.q?.trim();
    if (q) {
      const like = likeOf(q);
      base = base.where((eb) =>
        eb.or([
          eb('c.reference', 'ilike', like),
          eb('c.registration', 'ilike', like),
          eb('c.car_type', 'ilike', like),
          eb(sql<string>`u.lastname || ' ' || u.firstname`, 'ilike', like),
          eb(sql<string>`u.firstname || ' ' || u.lastname`, 'ilike', like),
          eb('u.phone', 'ilike', like),
        ]),
      );
    }
    const [rows, total] = await Promise.all([
      base
        .select([
          'c.id',
          'c.reference',
          'c.status',
          'c.transport_date',
          'c.amount',
          'c.description',
          'c.created_at',
          'c.aggregator_user_id',
          'a.firstname as a_firstname',
          'a.lastname as a_lastname',
          'c.carrier_id',
          'c.carrier_user_id',
          'u.firstname as u_firstname',
          'u.lastname as u_lastname',
          'u.phone as u_phone',
          'c.vehicle_id',
          'c.car_type',
          'c.registration',
        ])
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((r): CarriageRow => ({
        id: r.id,
        reference: r.reference,
        status: r.status,
        transportDate: isoDay(r.transport_date),
        amount: Number(r.amount),
        description: r.description,
        createdAt: new Date(r.created_at).toISOString(),
        aggregator: { id: r.aggregator_user_id, firstname: r.a_firstname, lastname: r.a_lastname },
        carrier: {
          id: r.carrier_id,
          userId: r.carrier_user_id,
          firstname: r.u_firstname,
          lastname: r.u_lastname,
          phone: r.u_phone,
        },
        vehicle: { id: r.vehicle_id, carType: r.car_type, registration: r.registration },
      })),
      count: Number(total.n),
    };
  }

  /** GET contracts/carriage-contract. */
  list(user: SignedInUser, query: CarriageListQuery) {
    return this.page(this.scopeOf(user), query);
  }

  /** GET contracts/carriage-contract/user/{id}: that user's (itself, or an admin asking). */
  async ofUser(user: SignedInUser, userId: string, query: CarriageListQuery) {
    if (!isAdmin(user) && user.id !== userId) throw new ForbiddenError(CARRIAGE_MESSAGES.forbidden);
    const target = await this.db
      .selectFrom('carriers')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return this.page(
      target ? { kind: 'carrierUser', userId } : { kind: 'aggregator', userId },
      query,
    );
  }

  /** A carrier's contracts (its profile's 'Contrats' tab); reach is checked by the caller. */
  ofCarrier(carrierId: string, query: CarriageListQuery) {
    return this.page({ kind: 'carrier', carrierId }, query);
  }

  /** GET contracts/carriage-contract/{id}: 404 unknown, 403 out of reach. */
  async one(user: SignedInUser, id: string): Promise<CarriageRow> {
    const rows = await this.byId(id);
    if (!rows) throw new NotFoundError(CARRIAGE_MESSAGES.notFound);
    if (!isAdmin(user) && rows.aggregator.id !== user.id && rows.carrier.userId !== user.id) {
      throw new ForbiddenError(CARRIAGE_MESSAGES.forbidden);
    }
    return rows;
  }

  private async byId(id: string): Promise<CarriageRow | null> {
    const r = await this.base()
      .where('c.id', '=', id)
      .select([
        'c.id',
        'c.reference',
        'c.status',
        'c.transport_date',
        'c.amount',
        'c.description',
        'c.created_at',
        'c.aggregator_user_id',
        'a.firstname as a_firstname',
        'a.lastname as a_lastname',
        'c.carrier_id',
        'c.carrier_user_id',
        'u.firstname as u_firstname',
        'u.lastname as u_lastname',
        'u.phone as u_phone',
        'c.vehicle_id',
        'c.car_type',
        'c.registration',
      ])
      .executeTakeFirst();
    if (!r) return null;
    return {
      id: r.id,
      reference: r.reference,
      status: r.status,
      transportDate: isoDay(r.transport_date),
      amount: Number(r.amount),
      description: r.description,
      createdAt: new Date(r.created_at).toISOString(),
      aggregator: { id: r.aggregator_user_id, firstname: r.a_firstname, lastname: r.a_lastname },
      carrier: {
        id: r.carrier_id,
        userId: r.carrier_user_id,
        firstname: r.u_firstname,
        lastname: r.u_lastname,
        phone: r.u_phone,
      },
      vehicle: { id: r.vehicle_id, carType: r.car_type, registration: r.registration },
    };
  }
}
