import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventCatalogue } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { nextBeninYear, useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp, checkProjector, type PushMessage } from '@filiere/projections';
import type { Database } from '../../database.js';
import { bearer, seedUser } from '../../identity/test-support.js';
import type { RoleCode } from '../../kernel/roles.js';
import { buildTestApp } from '../../test-app.js';
import { seasonEvents } from '../catalogue.js';
import { SeasonCommands } from '../commands/season-commands.js';
import { InvitationExpiryRunner } from '../jobs/expiry.js';
import { SeasonQueries } from '../queries.js';
import { seasonsProjector } from '../read-model/projector.js';
import { seasonsDb } from '../tables.js';

interface User {
  id: string;
  headers: Record<string, string>;
}

const decode = catalogueDecoder(new EventCatalogue(seasonEvents));

const SEASON = {
  label: 'Saison test 2026–2027',
  from: `${nextBeninYear()}-01-01`,
  to: `${nextBeninYear()}-12-31`,
  unitProductAmount: 120,
  productionIndex: 50,
  quotity: 10,
  fertilizers: [
    { fertilizerId: 1, typeId: 1, amount: 350, index: 300 },
    { fertilizerId: 2, amount: 400, index: 150 },
  ],
};

describe('seasons API (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let admin: User;
  let manager: User;
  let aggregator: User;
  let other: User;
  let grower: User;
  const pushes: PushMessage[] = [];
  let seasonId: number;

  const project = () =>
    catchUp(testDb.db, seasonsProjector, {
      decode,
      publish: async (messages) => void pushes.push(...messages),
    });

  const walletIdOf = async (who: User) =>
    (
      await db()
        .selectFrom('users')
        .select('wallet_id')
        .where('id', '=', who.id)
        .executeTakeFirstOrThrow()
    ).wallet_id;

  async function user(role: RoleCode): Promise<User> {
    const { id } = await seedUser(testDb.db, role);
    return { id, headers: bearer(app, { id }, role) };
  }

  const call = (
    who: User,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { ...who.headers, ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
    admin = await user('ROLE_SUPER_ADMIN');
    manager = await user('ROLE_CLUSTER_MANAGER');
    aggregator = await user('ROLE_INDUSTRIAL');
    other = await user('ROLE_INDUSTRIAL');
    grower = await user('ROLE_GROWER');
  });
  afterAll(async () => app?.close());

  it('the super admin creates a season (201, numeric id, line types from the catalogue)', async () => {
    const res = await call(admin, 'POST', '/api/clusters', SEASON);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ label: SEASON.label, isActive: false, unitProductAmount: 120 });
    expect(body.fertilizers[1]).toEqual({ fertilizerId: 2, typeId: 1, amount: 400, index: 150 });
    seasonId = body.seasonId;
    expect(Number.isInteger(seasonId)).toBe(true);
  });

  it('a create repeated with the same Idempotency-Key makes one season; the key reused for another is a 422', async () => {
    const key = randomUUID();
    const body = { ...SEASON, label: 'Saison idempotente' };
    const first = await call(admin, 'POST', '/api/clusters', body, { 'idempotency-key': key });
    const again = await call(admin, 'POST', '/api/clusters', body, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.json().seasonId).toBe(first.json().seasonId);
    const other = await call(
      admin,
      'POST',
      '/api/clusters',
      { ...body, label: 'Autre' },
      {
        'idempotency-key': key,
      },
    );
    expect(other.statusCode).toBe(422);
    const created = await db()
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'SeasonCreated')
      .where(sql<boolean>`data->>'label' in ('Saison idempotente', 'Autre')`)
      .executeTakeFirstOrThrow();
    expect(Number(created.n)).toBe(1);
    // Stored as `<userId>:seasons.create:<key>` with its fingerprint, as keys recorded before.
    const recorded = await db()
      .selectFrom('commands')
      .select('result')
      .where('key', '=', `${admin.id}:seasons.create:${key}`)
      .executeTakeFirstOrThrow();
    expect(recorded.result).toMatchObject({
      $fingerprint: expect.any(String),
      $result: { seasonId: first.json().seasonId },
    });
    // Archived at once: the list assertions below count the main season only.
    expect((await call(admin, 'DELETE', `/api/clusters/${first.json().seasonId}`)).statusCode).toBe(
      200,
    );
  });

  it('refuses the other roles (403) and bad input (400 with French field messages)', async () => {
    for (const who of [manager, aggregator, grower]) {
      expect((await call(who, 'POST', '/api/clusters', SEASON)).statusCode).toBe(403);
    }
    const res = await call(admin, 'POST', '/api/clusters', {
      ...SEASON,
      from: '2020-01-01',
      quotity: 101,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      quotity: expect.stringContaining('100'),
    });
    const past = await call(admin, 'POST', '/api/clusters', { ...SEASON, from: '2020-01-01' });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields.from).toBe(
      'La date de début ne peut pas être antérieure à aujourd’hui',
    );
    const unknown = await call(admin, 'POST', '/api/clusters', {
      ...SEASON,
      fertilizers: [{ fertilizerId: 999, amount: 1, index: 1 }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields['fertilizers.0.fertilizerId']).toBe(
      'Intrant introuvable dans le catalogue',
    );
  });

  it('attaches an industrial: PENDING invitation, amounts from the server, pushed to its bell', async () => {
    const res = await call(admin, 'POST', `/api/clusters/${seasonId}/industrial`, {
      industrialId: aggregator.id,
      quantity: 100_000,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'PENDING',
      quantity: 100_000,
      productionAmount: 12_000_000,
      fertilizerAmount: 330_000,
      minSupplyAmount: 1_530_000,
    });
    const expiresAt = Date.parse(res.json().expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    await project();
    expect(pushes).toContainEqual({
      type: 'seasons.invitation',
      userIds: [aggregator.id],
      data: { seasonId, linkId: res.json().linkId },
    });
    // The staff's 'Saisons' list and detail follow too: super admins and cluster managers.
    const staffPush = pushes.find(
      (p) =>
        p.type === 'seasons.updated' &&
        (p.data as { seasonId: number }).seasonId === seasonId &&
        p.userIds.includes(admin.id),
    );
    expect(staffPush?.userIds).toEqual(expect.arrayContaining([admin.id, manager.id]));
    expect(staffPush?.userIds).not.toContain(aggregator.id);
    const bell = await call(aggregator, 'GET', '/api/seasons/invitations');
    expect(bell.json()).toMatchObject({ count: 1, data: [{ seasonId, quantity: 100_000 }] });
    expect((await call(other, 'GET', '/api/seasons/invitations')).json().count).toBe(0);
  });

  it('an industrial that is not an aggregator or unknown is refused (422, 404)', async () => {
    const notIndustrial = await call(admin, 'POST', `/api/clusters/${seasonId}/industrial`, {
      industrialId: grower.id,
      quantity: 10,
    });
    expect(notIndustrial.statusCode).toBe(422);
    expect(notIndustrial.json().message).toBe('Cet utilisateur n’est pas un agrégateur');
    const unknown = await call(admin, 'POST', `/api/clusters/${seasonId}/industrial`, {
      industrialId: randomUUID(),
      quantity: 10,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('the amount preview computes without writing', async () => {
    const res = await call(admin, 'GET', `/api/seasons/${seasonId}/amounts?quantity=1`);
    expect(res.json()).toEqual({
      quantity: 1,
      productionAmount: 120,
      fertilizerAmount: 4,
      minSupplyAmount: 16,
    });
    expect(
      (await call(other, 'GET', `/api/seasons/${seasonId}/amounts?quantity=1`)).statusCode,
    ).toBe(403);
  });

  it('lists seasons with the sums over industrials, search, status filter and pagination', async () => {
    const list = await call(manager, 'GET', '/api/seasons?q=test&page=1&limit=10');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({
      count: 1,
      data: [{ id: seasonId, quantity: 100_000, productionAmount: 12_000_000, status: 'CREATED' }],
    });
    expect((await call(admin, 'GET', '/api/seasons?q=zzz')).json().count).toBe(0);
    expect((await call(admin, 'GET', '/api/seasons?status=ACCEPTED')).json().count).toBe(0);
    expect((await call(aggregator, 'GET', '/api/seasons')).statusCode).toBe(403);
    expect((await call(admin, 'GET', '/api/seasons?status=FOO')).statusCode).toBe(400);
  });

  it('reach: an industrial sees only its own links (403 on another’s)', async () => {
    expect((await call(other, 'GET', `/api/clusters/${seasonId}`)).statusCode).toBe(403);
    expect((await call(other, 'GET', `/api/clusters/industrial/${aggregator.id}`)).statusCode).toBe(
      403,
    );
    expect(
      (await call(other, 'GET', `/api/clusters/${seasonId}/industrial/${aggregator.id}`))
        .statusCode,
    ).toBe(403);
    const own = await call(aggregator, 'GET', `/api/clusters/${seasonId}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().industrials.map((l: { userId: string }) => l.userId)).toEqual([
      aggregator.id,
    ]);
    expect(own.json().fertilizers[0]).toMatchObject({
      label: 'NPK 15-15-15',
      typeLabel: 'Engrais',
    });
    expect((await call(admin, 'GET', `/api/clusters/999999`)).statusCode).toBe(404);
  });

  it('accepting confirms whatever the balance and gives the shortfall; again is a 422', async () => {
    const key = randomUUID();
    const res = await call(
      aggregator,
      'POST',
      `/api/seasons/${seasonId}/accept`,
      {},
      {
        'idempotency-key': key,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'CONFIRMED',
      funding: {
        availableBalance: 0,
        minSupplyAmount: 1_530_000,
        funded: false,
        shortfall: 1_530_000,
      },
    });
    // The same request with the same key: the first answer, nothing appended again.
    const repeat = await call(
      aggregator,
      'POST',
      `/api/seasons/${seasonId}/accept`,
      {},
      {
        'idempotency-key': key,
      },
    );
    expect(repeat.statusCode).toBe(200);
    const again = await call(aggregator, 'POST', `/api/seasons/${seasonId}/accept`, {});
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('Vous avez déjà accepté cette saison');
    const accepted = await db()
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'IndustrialAccepted')
      .executeTakeFirstOrThrow();
    expect(Number(accepted.n)).toBe(1);
    await project();
    const list = await call(admin, 'GET', '/api/seasons?status=ACCEPTED');
    expect(list.json().count).toBe(1);
    expect(pushes).toContainEqual({
      type: 'seasons.updated',
      userIds: [aggregator.id],
      data: { seasonId },
    });
  });

  it('the funding status follows the wallet’s available balance', async () => {
    const supply = await call(
      aggregator,
      'POST',
      '/api/supply',
      {
        amount: 2_000_000,
        walletId: await walletIdOf(aggregator),
        accountType: 'BANK',
        bank: 'BAB',
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(supply.statusCode, supply.body).toBe(201);
    const validated = await call(
      admin,
      'POST',
      '/api/supply/validate-bank-supply',
      { reference: supply.json().reference },
      { 'idempotency-key': randomUUID() },
    );
    expect(validated.statusCode, validated.body).toBe(200);
    const link = await call(
      aggregator,
      'GET',
      `/api/clusters/${seasonId}/industrial/${aggregator.id}`,
    );
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().funding).toEqual({
      availableBalance: 2_000_000,
      minSupplyAmount: 1_530_000,
      funded: true,
      shortfall: 0,
    });
    const mine = await call(aggregator, 'GET', `/api/clusters/industrial/${aggregator.id}`);
    expect(mine.json()).toMatchObject({ count: 1, data: [{ id: seasonId, status: 'CONFIRMED' }] });
  });

  it('once an industrial accepted, the pricing is locked (409) but the name may change', async () => {
    const locked = await call(admin, 'PATCH', `/api/clusters/${seasonId}`, { quotity: 20 });
    expect(locked.statusCode).toBe(409);
    const renamed = await call(admin, 'PATCH', `/api/clusters/${seasonId}`, {
      label: 'Saison test renommée',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ label: 'Saison test renommée', quotity: 10 });
  });

  it('an invitation past expiresAt is CANCELED by the expiry job (once), then refused with a 422', async () => {
    const invited = await call(admin, 'POST', `/api/clusters/${seasonId}/industrial`, {
      industrialId: other.id,
      quantity: 50_000,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    await project();
    const later = new Date(Date.parse(invited.json().expiresAt) + 1000);
    const sdb = seasonsDb(db());
    const commands = new SeasonCommands({
      db: sdb,
      pipeline: app.commands,
      invitationDays: 7,
      now: () => later,
    });
    const runner = new InvitationExpiryRunner(commands, new SeasonQueries(sdb), () => later);
    // Before the projector catches up a second sweep finds the row still PENDING: no event.
    const [first, second] = await Promise.all([runner.runDue(), runner.runDue()]);
    expect(first + second).toBe(1);
    expect(await runner.runDue()).toBe(0);
    await project();
    expect(await runner.runDue()).toBe(0);
    const expired = await db()
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'InvitationExpired')
      .executeTakeFirstOrThrow();
    expect(Number(expired.n)).toBe(1);
    const link = await call(other, 'GET', `/api/clusters/${seasonId}/industrial/${other.id}`);
    expect(link.json().status).toBe('CANCELED');
    const accept = await call(other, 'POST', `/api/seasons/${seasonId}/accept`, {});
    expect(accept.statusCode).toBe(422);
    expect(accept.json().message).toMatch(
      /^Cette invitation a expiré le .* : elle ne peut plus être acceptée$/,
    );
    // The season's sums count only live links.
    const list = await call(admin, 'GET', '/api/seasons');
    expect(list.json().data[0]).toMatchObject({ quantity: 100_000, industrialsCount: 1 });
  });

  it('activate once (then 409), archive (leaves the list), and the read model replays identically', async () => {
    const activated = await call(admin, 'POST', `/api/clusters/activate-cluster/${seasonId}`, {});
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json().message).toBe(
      'La saison Saison test renommée a été activée avec succès',
    );
    expect(
      (await call(admin, 'POST', `/api/clusters/activate-cluster/${seasonId}`, {})).statusCode,
    ).toBe(409);
    const archived = await call(admin, 'DELETE', `/api/clusters/${seasonId}`);
    expect(archived.json()).toEqual({ message: 'Campagne archivée avec succès' });
    await project();
    expect((await call(admin, 'GET', '/api/seasons')).json().count).toBe(0);
    expect((await call(admin, 'GET', `/api/clusters/${seasonId}`)).statusCode).toBe(404);
    const check = await checkProjector(testDb.db, seasonsProjector, { decode });
    expect(check.differences).toEqual([]);
  });
});
