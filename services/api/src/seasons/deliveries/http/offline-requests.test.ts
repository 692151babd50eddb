import { pbkdf2Sync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { findDemoUser } from '../../../identity/index.js';
import { bearer } from '../../../identity/test-support.js';
import type { RoleCode } from '../../../kernel/roles.js';
import { product } from '../../../modules.js';
import { useDemoDatabase } from '../../../test-demo-database.js';
import { DEMO_SEASON_LABEL } from '../../demo/seasons.js';
import { inputProvidersProjector } from '../../inputs/read-model/projector.js';
import { seasonsProjector } from '../../read-model/projector.js';
import { requestEvent, requestReference, requestStreamId } from '../../requests/index.js';
import { seasonRequestsProjector } from '../../requests/read-model/projector.js';
import { CODE_CHECK_ITERATIONS } from '../code-check.js';

interface Who {
  id: string;
  headers: Record<string, string>;
}

interface OfflineRow {
  id: number;
  reference: string;
  status: string;
  codeCheck: { algorithm: string; iterations: number; salt: string; hash: string };
}

/**
 * GET input-provider/offline-requests on a real PostgreSQL, over the demo (Intrants du Sud on
 * the demo aggregator's NPK line, Agri Plast on its urea line): the provider's requests to
 * deliver, each with a PBKDF2 check of its code that the phone can verify and that never
 * carries the code; nobody but the provider itself receives them.
 */
describe('offline requests of an input provider API (real PostgreSQL)', () => {
  const testDb = useDemoDatabase('season-inputs');
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let aggregator: Who;
  let supplier: Who;
  let plast: Who;
  let admin: Who;
  let superAdmin: Who;
  let growerWho: Who;
  let seasonId: number;
  let linkId: number;
  let grower: { id: string; userId: string };
  let nextRequest = 950_000;

  const who = async (email: string, role: RoleCode): Promise<Who> => {
    const { id } = await findDemoUser(testDb.db, email);
    return { id, headers: bearer(app, { id }, role) };
  };
  const offline = (user: Who | null) =>
    app.inject({
      method: 'GET',
      url: '/api/input-provider/offline-requests',
      headers: user?.headers ?? {},
    });
  const decode = catalogueDecoder(product.catalogue);
  const project = async () => {
    for (const projector of [seasonsProjector, inputProvidersProjector, seasonRequestsProjector]) {
      await catchUp(testDb.db, projector, { decode, publish: async () => undefined });
    }
  };
  /** An INPUT request of `kg` filed and accepted with `code` (the requests area's events). */
  async function acceptedRequest(code: string, kg: number, fertilizerId = 1): Promise<number> {
    const requestId = ++nextRequest;
    const streamId = requestStreamId(requestId);
    const unit = fertilizerId === 1 ? 350 : 300;
    await app.commands.handle({
      streams: [streamId],
      metadata: { userId: aggregator.id },
      decide: () => ({
        result: null,
        writes: [
          {
            streamId,
            events: [
              requestEvent('GrowerRequestFiled', {
                requestId,
                reference: requestReference(requestId),
                type: 'INPUT',
                seasonId,
                linkId,
                industrialUserId: aggregator.id,
                sfdUserId: null,
                growerId: grower.id,
                growerUserId: grower.userId,
                fertilizerId,
                quantityKg: kg,
                amount: kg * unit,
                filedBy: grower.userId,
                filedAt: new Date().toISOString(),
              }),
              requestEvent('GrowerRequestAccepted', {
                requestId,
                acceptedBy: aggregator.id,
                acceptedAt: new Date().toISOString(),
                code,
                debtId: null,
                transferId: null,
              }),
            ],
          },
        ],
      }),
    });
    await project();
    return requestId;
  }

  beforeAll(async () => {
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: testDb.db as Kysely<Database>,
      logger: createLogger('silent', false),
    });
    await app.ready();
    await project();
    superAdmin = await who('superadmin@demo.filiere.bj', 'ROLE_SUPER_ADMIN');
    admin = await who('admin@demo.filiere.bj', 'ROLE_ADMIN');
    aggregator = await who('agregateur@demo.filiere.bj', 'ROLE_INDUSTRIAL');
    supplier = await who('fournisseur@demo.filiere.bj', 'ROLE_INPUT_PROVIDER');
    plast = await who('agri.plast@demo.filiere.bj', 'ROLE_INPUT_PROVIDER');
    const link = await db()
      .selectFrom('season_links')
      .innerJoin('seasons', 'seasons.id', 'season_links.season_id')
      .select(['season_links.id', 'seasons.id as season_id'])
      .where('seasons.label', '=', DEMO_SEASON_LABEL)
      .where('season_links.user_id', '=', aggregator.id)
      .executeTakeFirstOrThrow();
    seasonId = link.season_id;
    linkId = link.id;
    const row = await db()
      .selectFrom('growers')
      .select(['id', 'user_id'])
      .where('deactivated_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    grower = { id: row.id, userId: row.user_id };
    growerWho = { id: row.user_id, headers: bearer(app, { id: row.user_id }, 'ROLE_GROWER') };
  }, 240_000);
  afterAll(async () => app?.close());

  it('the provider gets its requests to deliver, each with a PBKDF2 check of its code and never the code', async () => {
    const npk = await acceptedRequest('AGW_310001', 10);
    const urea = await acceptedRequest('AGW_310002', 10, 2);
    const res = await offline(supplier);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: OfflineRow[]; count: number; issuedAt: string };
    expect(body.count).toBe(body.data.length);
    expect(body.data.every((r) => r.status === 'CREATED')).toBe(true);
    const ids = body.data.map((r) => r.id);
    expect(ids).toContain(npk);
    // Urea is Agri Plast's line.
    expect(ids).not.toContain(urea);
    const row = body.data.find((r) => r.id === npk)!;
    expect(row.reference).toBe(requestReference(npk));
    expect(row.codeCheck).toMatchObject({
      algorithm: 'PBKDF2-SHA256',
      iterations: CODE_CHECK_ITERATIONS,
    });
    expect(row.codeCheck.iterations).toBeGreaterThanOrEqual(100_000);
    const derive = (code: string) =>
      pbkdf2Sync(
        code,
        Buffer.from(row.codeCheck.salt, 'base64'),
        row.codeCheck.iterations,
        32,
        'sha256',
      ).toString('base64');
    expect(derive('AGW_310001')).toBe(row.codeCheck.hash);
    expect(derive('AGW_310009')).not.toBe(row.codeCheck.hash);
    // No code of any request in the answer, in any field.
    expect(res.body).not.toMatch(/AGW_\d{6}/);
    // Each request has a salt of its own.
    const salts = body.data.map((r) => r.codeCheck.salt);
    expect(new Set(salts).size).toBe(salts.length);

    const other = (await offline(plast)).json() as { data: OfflineRow[] };
    expect(other.data.map((r) => r.id)).toContain(urea);
    expect(other.data.map((r) => r.id)).not.toContain(npk);
  });

  it('a delivered request leaves the list', async () => {
    const requestId = await acceptedRequest('AGW_310003', 5);
    expect(
      ((await offline(supplier)).json() as { data: OfflineRow[] }).data.map((r) => r.id),
    ).toContain(requestId);
    const delivered = await app.inject({
      method: 'POST',
      url: `/api/input-provider/make-delivery/${requestId}`,
      headers: supplier.headers,
      payload: { code: 'AGW_310003' },
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    await project();
    expect(
      ((await offline(supplier)).json() as { data: OfflineRow[] }).data.map((r) => r.id),
    ).not.toContain(requestId);
  });

  it('nobody but the input provider itself: industrial, admins, grower 403; no token 401', async () => {
    await acceptedRequest('AGW_310004', 5);
    for (const user of [aggregator, admin, superAdmin, growerWho]) {
      const res = await offline(user);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).not.toContain('codeCheck');
    }
    expect((await offline(null)).statusCode).toBe(401);
  });

  it('the other lists never carry the checks', async () => {
    await acceptedRequest('AGW_310005', 5);
    for (const [user, url] of [
      [supplier, `/api/input-provider/growers-request/${supplier.id}?limit=100`],
      [aggregator, `/api/input-provider/growers-request/${aggregator.id}?limit=100`],
      [supplier, '/api/input-provider/find-by-code/AGW_310005'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: user.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('codeCheck');
      expect(res.body).not.toContain('hash');
    }
  });
});
