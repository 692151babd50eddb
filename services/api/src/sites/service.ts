import { sql, type Kysely, type Transaction } from 'kysely';
import type { CommandPipeline } from '@filiere/event-store';
import { ForbiddenError, NotFoundError, ValidationError, narrowDb } from '@filiere/platform';
import type { SignedInUser } from '../kernel/actor.js';
import { ROLE } from '../kernel/roles.js';
import type { IdentityTables } from '../identity/index.js';
import type { LocationsTables } from '../locations/index.js';
import { appendSitesEvent, type SITE_FIELDS, type ZONE_FIELDS } from './catalogue.js';
import { MAX_SITES_PER_USER, MAX_ZONES_PER_USER, type Point } from './domain/geometry.js';
import {
  SITE_MESSAGES as M,
  type ListQuery,
  type SiteBody,
  type SiteDto,
  type SiteUpdateBody,
  type ZoneBody,
  type ZoneDto,
  type ZoneListQuery,
  type ZoneUpdateBody,
} from './schemas.js';
import type { SitesTables } from './tables.js';

export type SitesDb = SitesTables & Pick<IdentityTables, 'users'> & LocationsTables;
export const sitesDb = narrowDb<SitesDb>();

/** Who may read every user's stores and zones (the others: their own only). */
const READS_ALL = new Set<string>([ROLE.SUPER_ADMIN]);

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const siteDto = (row: {
  id: string;
  user_id: string;
  label: string;
  address: string;
  latitude: string;
  longitude: string;
  created_at: Date;
  updated_at: Date;
}): SiteDto => ({
  id: row.id,
  userId: row.user_id,
  label: row.label,
  address: row.address,
  latitude: Number(row.latitude),
  longitude: Number(row.longitude),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const zoneDto = (row: {
  id: string;
  user_id: string;
  name: string;
  coordinates: Point[];
  created_at: Date;
  updated_at: Date;
}): ZoneDto => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  coordinates: row.coordinates.map((p) => ({
    latitude: Number(p.latitude),
    longitude: Number(p.longitude),
  })),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/**
 * Stores (user sites) and coverage zones. An industrial manages its own; the super admin
 * reads everyone's. Each change writes the row and its audit event (catalogue.ts) in one
 * transaction; a per-owner advisory lock keeps the per-user limits under concurrent adds.
 */
export class SitesService {
  private readonly db: Kysely<SitesDb>;

  constructor(
    pool: Kysely<SitesDb>,
    private readonly commands: CommandPipeline,
  ) {
    this.db = pool;
  }

  /** 403 unless the actor reads `userId`'s stores and zones. */
  private assertReads(actor: SignedInUser, userId: string) {
    if (actor.id === userId || READS_ALL.has(actor.role_code)) return;
    throw new ForbiddenError(M.notYours);
  }

  /** 403 unless the actor is the owner (only an industrial manages stores and zones). */
  private assertOwns(actor: SignedInUser, userId: string) {
    if (actor.id !== userId) throw new ForbiddenError(M.notYours);
  }

  private lockOwner(trx: Transaction<SitesDb>, userId: string) {
    return sql`select pg_advisory_xact_lock(hashtext(${`sites-${userId}`}))`.execute(trx);
  }

  // Stores

  async listSites(actor: SignedInUser, userId: string, query: ListQuery) {
    this.assertReads(actor, userId);
    let q = this.db.selectFrom('user_sites').where('user_id', '=', userId);
    if (query.q) {
      const like = likePattern(query.q);
      q = q.where((eb) => eb.or([eb('label', 'ilike', like), eb('address', 'ilike', like)]));
    }
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map(siteDto), count: Number(total.n) };
  }

  private async findSite(id: string) {
    const row = await this.db
      .selectFrom('user_sites')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(M.siteNotFound);
    return row;
  }

  async getSite(actor: SignedInUser, id: string): Promise<SiteDto> {
    const row = await this.findSite(id);
    this.assertReads(actor, row.user_id);
    return siteDto(row);
  }

  async addSite(actor: SignedInUser, userId: string, body: SiteBody): Promise<SiteDto> {
    this.assertOwns(actor, userId);
    const row = await this.db.transaction().execute(async (trx) => {
      await this.lockOwner(trx, userId);
      const { n } = await trx
        .selectFrom('user_sites')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_SITES_PER_USER) {
        throw new ValidationError(M.tooManySites(MAX_SITES_PER_USER));
      }
      const inserted = await trx
        .insertInto('user_sites')
        .values({ user_id: userId, ...body })
        .returningAll()
        .executeTakeFirstOrThrow();
      await appendSitesEvent(this.commands, {
        type: 'SiteAdded',
        data: { siteId: inserted.id, userId, actorId: actor.id, ...body },
      });
      return inserted;
    });
    return siteDto(row);
  }

  async updateSite(actor: SignedInUser, id: string, body: SiteUpdateBody): Promise<SiteDto> {
    const current = await this.findSite(id);
    this.assertOwns(actor, current.user_id);
    const fields = (Object.keys(body) as (typeof SITE_FIELDS)[number][]).filter(
      (k) => body[k] !== undefined,
    );
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('user_sites')
        .set({ ...body, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new NotFoundError(M.siteNotFound);
      await appendSitesEvent(this.commands, {
        type: 'SiteUpdated',
        data: { siteId: id, userId: current.user_id, actorId: actor.id, fields },
      });
      return updated;
    });
    return siteDto(row);
  }

  async deleteSite(actor: SignedInUser, id: string): Promise<{ message: string }> {
    const current = await this.findSite(id);
    this.assertOwns(actor, current.user_id);
    await this.db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('user_sites').where('id', '=', id).executeTakeFirst();
      if (!Number(gone.numDeletedRows)) throw new NotFoundError(M.siteNotFound);
      await appendSitesEvent(this.commands, {
        type: 'SiteDeleted',
        data: { siteId: id, userId: current.user_id, actorId: actor.id },
      });
    });
    return { message: M.siteDeleted };
  }

  // Coverage zones

  async listZones(actor: SignedInUser, query: ZoneListQuery) {
    const userId = query.userId ?? actor.id;
    this.assertReads(actor, userId);
    let q = this.db.selectFrom('coverage_zones').where('user_id', '=', userId);
    if (query.q) q = q.where('name', 'ilike', likePattern(query.q));
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map(zoneDto), count: Number(total.n) };
  }

  private async findZone(id: string) {
    const row = await this.db
      .selectFrom('coverage_zones')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(M.zoneNotFound);
    return row;
  }

  async getZone(actor: SignedInUser, id: string): Promise<ZoneDto> {
    const row = await this.findZone(id);
    this.assertReads(actor, row.user_id);
    return zoneDto(row);
  }

  async addZone(actor: SignedInUser, body: ZoneBody): Promise<ZoneDto> {
    const userId = actor.id;
    const row = await this.db.transaction().execute(async (trx) => {
      await this.lockOwner(trx, userId);
      const { n } = await trx
        .selectFrom('coverage_zones')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_ZONES_PER_USER) {
        throw new ValidationError(M.tooManyZones(MAX_ZONES_PER_USER));
      }
      const inserted = await trx
        .insertInto('coverage_zones')
        .values({ user_id: userId, name: body.name, coordinates: JSON.stringify(body.coordinates) })
        .returningAll()
        .executeTakeFirstOrThrow();
      await appendSitesEvent(this.commands, {
        type: 'ZoneAdded',
        data: { zoneId: inserted.id, userId, actorId: actor.id, ...body },
      });
      return inserted;
    });
    return zoneDto(row);
  }

  async updateZone(actor: SignedInUser, id: string, body: ZoneUpdateBody): Promise<ZoneDto> {
    const current = await this.findZone(id);
    this.assertOwns(actor, current.user_id);
    const fields = (Object.keys(body) as (typeof ZONE_FIELDS)[number][]).filter(
      (k) => body[k] !== undefined,
    );
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('coverage_zones')
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.coordinates !== undefined
            ? { coordinates: JSON.stringify(body.coordinates) }
            : {}),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new NotFoundError(M.zoneNotFound);
      await appendSitesEvent(this.commands, {
        type: 'ZoneUpdated',
        data: { zoneId: id, userId: current.user_id, actorId: actor.id, fields },
      });
      return updated;
    });
    return zoneDto(row);
  }

  async deleteZone(actor: SignedInUser, id: string): Promise<{ message: string }> {
    const current = await this.findZone(id);
    this.assertOwns(actor, current.user_id);
    await this.db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('coverage_zones').where('id', '=', id).executeTakeFirst();
      if (!Number(gone.numDeletedRows)) throw new NotFoundError(M.zoneNotFound);
      await appendSitesEvent(this.commands, {
        type: 'ZoneDeleted',
        data: { zoneId: id, userId: current.user_id, actorId: actor.id },
      });
    });
    return { message: M.zoneDeleted };
  }

  /**
   * The address search's offline fallback: villages (then arrondissements, communes,
   * départements) whose name holds the text, each with the chain above it, from the
   * locations reference data. Accents ignored, as the names are stored.
   */
  async searchAddresses(q: string): Promise<{ data: { label: string; code: string }[] }> {
    const text = q.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().trim();
    const like = likePattern(text);
    const villages = await this.db
      .selectFrom('villages as v')
      .innerJoin('arrondissements as a', 'a.code', 'v.arrondissement_code')
      .innerJoin('communes as c', 'c.code', 'a.commune_code')
      .innerJoin('departments as d', 'd.code', 'c.department_code')
      .select([
        'v.code',
        'v.name as village',
        'a.name as arr',
        'c.name as commune',
        'd.name as dep',
      ])
      .where((eb) =>
        eb.or([eb('v.name', 'like', like), eb('a.name', 'like', like), eb('c.name', 'like', like)]),
      )
      .orderBy(sql`v.name like ${like}`, 'desc')
      .orderBy('v.name')
      .orderBy('v.code')
      .limit(8)
      .execute();
    return {
      data: villages.map((v) => ({
        code: v.code,
        label: [v.village, v.arr, v.commune, v.dep]
          .filter((part, i, all) => all.indexOf(part) === i)
          .join(', '),
      })),
    };
  }
}
