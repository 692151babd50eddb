import { sql } from 'kysely';
import { ConflictError, ForbiddenError, NotFoundError } from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import type { SeasonActor } from '../domain/index.js';
import type { InputsDb } from '../inputs/index.js';
import { DELIVERY_CODE } from '../requests/index.js';
import { DELIVERY_MESSAGES } from './domain/index.js';
import { identityUsers } from '../../identity/index.js';
import type { CodeCheck, CodeCheckCache } from './code-check.js';

/** At most this many requests go to a phone for the day offline, the newest first. */
export const OFFLINE_REQUESTS_MAX = 300;

/** A request to deliver as the phone keeps it offline: the row and its code's check. */
export interface OfflineDeliveryRow extends DeliveryRow {
  codeCheck: CodeCheck;
}

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An input request waiting for delivery or delivered, as the 'Demandes d'intrants' page shows it. */
export interface DeliveryRow {
  id: number;
  reference: string;
  grower: { id: string; firstname: string; lastname: string; phone: string | null };
  fertilizer: { id: number; label: string; type: { id: number; label: string } };
  aggregator: { id: string; firstname: string; lastname: string };
  quantity: number;
  amount: number;
  /** CREATED ('En attente de livraison') or DONE ('Validée'). */
  status: 'CREATED' | 'DONE';
  receivedAt: string | null;
  createdAt: string;
}

/**
 * The deliveries' reads, on the requests' table (`season_requests`) and the providers'
 * (`season_input_providers`): a provider reaches the accepted INPUT requests of the lines
 * it has an ACTIVE assignment for (and those it delivered); an industrial its own.
 */
export class DeliveryQueries {
  constructor(private readonly db: InputsDb) {}

  private base() {
    return this.db
      .selectFrom('season_requests as r')
      .innerJoin(identityUsers().as('g'), 'g.id', 'r.grower_user_id')
      .innerJoin(identityUsers().as('i'), 'i.id', 'r.industrial_user_id')
      .innerJoin('fertilizers as f', 'f.id', 'r.fertilizer_id')
      .innerJoin('fertilizer_types as ft', 'ft.id', 'f.type_id')
      .where('r.type', '=', 'INPUT')
      .where('r.delivery_status', 'is not', null);
  }

  private reachOf(viewer: SeasonActor, userId: string, role: string | undefined) {
    const staff = viewer.role === ROLE.SUPER_ADMIN || viewer.role === ROLE.ADMIN;
    if (!staff && viewer.userId !== userId)
      throw new ForbiddenError(DELIVERY_MESSAGES.notYourRequest);
    return role;
  }

  private async roleOf(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(identityUsers().as('users'))
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('roles.code')
      .where('users.id', '=', userId)
      .executeTakeFirst();
    return row?.code;
  }

  private columns() {
    return [
      'r.id',
      'r.reference',
      'r.quantity_kg',
      'r.amount',
      'r.delivery_status',
      'r.received_at',
      'r.created_at',
      'g.id as grower_user_id',
      'g.firstname as grower_firstname',
      'g.lastname as grower_lastname',
      'g.phone as grower_phone',
      'i.id as industrial_id',
      'i.firstname as industrial_firstname',
      'i.lastname as industrial_lastname',
      'f.id as fertilizer_id',
      'f.label as fertilizer_label',
      'ft.id as type_id',
      'ft.label as type_label',
    ] as const;
  }

  private static toRow(r: {
    id: number;
    reference: string;
    quantity_kg: number | null;
    amount: number;
    delivery_status: 'CREATED' | 'DONE' | null;
    received_at: Date | null;
    created_at: Date;
    grower_user_id: string;
    grower_firstname: string;
    grower_lastname: string;
    grower_phone: string | null;
    industrial_id: string;
    industrial_firstname: string;
    industrial_lastname: string;
    fertilizer_id: number;
    fertilizer_label: string;
    type_id: number;
    type_label: string;
  }): DeliveryRow {
    return {
      id: r.id,
      reference: r.reference,
      grower: {
        id: r.grower_user_id,
        firstname: r.grower_firstname,
        lastname: r.grower_lastname,
        phone: r.grower_phone,
      },
      fertilizer: {
        id: r.fertilizer_id,
        label: r.fertilizer_label,
        type: { id: r.type_id, label: r.type_label },
      },
      aggregator: {
        id: r.industrial_id,
        firstname: r.industrial_firstname,
        lastname: r.industrial_lastname,
      },
      quantity: Number(r.quantity_kg ?? 0),
      amount: Number(r.amount),
      status: r.delivery_status === 'DONE' ? 'DONE' : 'CREATED',
      receivedAt: r.received_at ? new Date(r.received_at).toISOString() : null,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  /**
   * GET input-provider/growers-request/{userId}: the input requests to deliver and delivered
   * of a provider (its ACTIVE lines, and what it delivered) or of an industrial (its own),
   * newest first, searchable (reference, grower, phone, input), 10 a page.
   */
  async list(
    viewer: SeasonActor,
    userId: string,
    query: { q?: string | undefined; page: number; limit: number },
  ): Promise<{ data: DeliveryRow[]; count: number }> {
    const role = this.reachOf(viewer, userId, await this.roleOf(userId));
    let base = this.base();
    if (role === ROLE.INPUT_PROVIDER) {
      base = base.where((eb) =>
        eb.or([
          eb('r.provider_user_id', '=', userId),
          eb.exists(
            eb
              .selectFrom('season_input_providers as sip')
              .select('sip.id')
              .whereRef('sip.link_id', '=', 'r.link_id')
              .whereRef('sip.fertilizer_id', '=', 'r.fertilizer_id')
              .where('sip.provider_user_id', '=', userId)
              .where('sip.status', '=', 'ACTIVE'),
          ),
        ]),
      );
    } else if (role === ROLE.INDUSTRIAL) {
      base = base.where('r.industrial_user_id', '=', userId);
    } else {
      base = base.where(sql<boolean>`false`);
    }
    const q = query.q?.trim();
    if (q) {
      base = base.where(
        sql<boolean>`(r.reference || ' ' || g.firstname || ' ' || g.lastname || ' ' || coalesce(g.phone, '') || ' ' || f.label) ilike ${like(q)}`,
      );
    }
    const [rows, total] = await Promise.all([
      base
        .select(this.columns())
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map(DeliveryQueries.toRow), count: Number(total.n) };
  }

  /** The requests of the lines a provider has an ACTIVE assignment on, or that it delivered. */
  private inReachOfProvider(base: ReturnType<DeliveryQueries['base']>, providerUserId: string) {
    return base.where((eb) =>
      eb.or([
        eb('r.provider_user_id', '=', providerUserId),
        eb.exists(
          eb
            .selectFrom('season_input_providers as sip')
            .select('sip.id')
            .whereRef('sip.link_id', '=', 'r.link_id')
            .whereRef('sip.fertilizer_id', '=', 'r.fertilizer_id')
            .where('sip.provider_user_id', '=', providerUserId)
            .where('sip.status', '=', 'ACTIVE'),
        ),
      ]),
    );
  }

  /**
   * GET input-provider/offline-requests: the input provider's own requests still to deliver
   * (its ACTIVE lines), newest first, at most `OFFLINE_REQUESTS_MAX`, each with the check of
   * its code (never the code). Only the provider itself calls it (the route's guard): an
   * industrial, an admin or another provider never receives another's checks.
   */
  async offline(
    provider: SeasonActor,
    checks: CodeCheckCache,
  ): Promise<{ data: OfflineDeliveryRow[]; count: number; issuedAt: string }> {
    if (provider.role !== ROLE.INPUT_PROVIDER) {
      throw new ForbiddenError(DELIVERY_MESSAGES.notYourRequest);
    }
    const rows = await this.inReachOfProvider(this.base(), provider.userId)
      .where('r.delivery_status', '=', 'CREATED')
      .where('r.code', 'is not', null)
      .select([...this.columns(), 'r.code'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(OFFLINE_REQUESTS_MAX)
      .execute();
    const data = await Promise.all(
      rows.map(async (row) => ({
        ...DeliveryQueries.toRow(row),
        codeCheck: await checks.get(row.id, row.code!),
      })),
    );
    return { data, count: data.length, issuedAt: new Date().toISOString() };
  }

  /**
   * GET input-provider/find-by-code/{code}: the accepted INPUT request of that code, when the
   * caller reaches it; an unknown code, a malformed one, or one the caller does not reach is
   * the same 404 ('Le code du producteur que vous avez saisi est incorrect'). A code already
   * delivered is a 409.
   */
  async findByCode(viewer: SeasonActor, rawCode: string): Promise<DeliveryRow> {
    const code = rawCode.trim().toUpperCase();
    const incorrect = () => new NotFoundError(DELIVERY_MESSAGES.incorrectCode);
    if (!DELIVERY_CODE.test(code)) throw incorrect();
    let base = this.base().where('r.code', '=', code);
    if (viewer.role === ROLE.INDUSTRIAL) {
      base = base.where('r.industrial_user_id', '=', viewer.userId);
    } else if (viewer.role === ROLE.INPUT_PROVIDER) {
      base = base.where((eb) =>
        eb.or([
          eb('r.provider_user_id', '=', viewer.userId),
          eb.exists(
            eb
              .selectFrom('season_input_providers as sip')
              .select('sip.id')
              .whereRef('sip.link_id', '=', 'r.link_id')
              .whereRef('sip.fertilizer_id', '=', 'r.fertilizer_id')
              .where('sip.provider_user_id', '=', viewer.userId)
              .where('sip.status', '=', 'ACTIVE'),
          ),
        ]),
      );
    } else {
      throw incorrect();
    }
    const row = await base.select(this.columns()).executeTakeFirst();
    if (!row) throw incorrect();
    if (row.delivery_status === 'DONE') {
      throw new ConflictError(DELIVERY_MESSAGES.alreadyDelivered, { reason: 'ALREADY_DELIVERED' });
    }
    return DeliveryQueries.toRow(row);
  }
}
