import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventCatalogue } from '@filiere/event-store';
import { createLogger, narrowDb, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import type { Database } from '../../database.js';
import { bearer, seedUser } from '../../identity/test-support.js';
import { buildTestApp } from '../../test-app.js';
import { seasonEvents } from '../catalogue.js';
import { SeasonCommands } from '../commands/season-commands.js';
import { seasonsModule } from '../index.js';
import { seasonsProjector } from '../read-model/projector.js';
import { seasonsDb } from '../tables.js';

const catalogue = new EventCatalogue(seasonEvents);

describe('invitation expiry in the worker (the module’s JobModule)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db);
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('cancels an invitation past expiresAt as soon as it starts, once', async () => {
    const admin = await seedUser(testDb.db, 'ROLE_SUPER_ADMIN');
    const industrial = await seedUser(testDb.db, 'ROLE_INDUSTRIAL');
    const created = await app.inject({
      method: 'POST',
      url: '/api/clusters',
      headers: bearer(app, admin, 'ROLE_SUPER_ADMIN'),
      payload: {
        label: 'Saison expirée',
        from: '2099-01-01',
        to: '2099-12-31',
        unitProductAmount: 100,
        productionIndex: 40,
        quotity: 5,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const seasonId = created.json().seasonId as number;
    // Invited eight days ago: its seven days ran out yesterday.
    const db = seasonsDb(narrowDb<Database>()(testDb.db));
    const past = new SeasonCommands({
      db,
      pipeline: app.commands,
      invitationDays: 7,
      now: () => new Date(Date.now() - 8 * 86_400_000),
    });
    await past.attach({ userId: admin.id, role: 'ROLE_SUPER_ADMIN' }, seasonId, {
      industrialId: industrial.id,
      quantity: 1000,
    });
    const decode = catalogueDecoder(catalogue);
    await catchUp(testDb.db, seasonsProjector, { decode });

    const job = seasonsModule.jobs![0]!;
    const running = await job.start({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: testDb.db,
      databaseUrl: testDb.url,
      logger: createLogger('silent', false),
      redisUrl: 'redis://127.0.0.1:1',
      catalogue,
      publish: async () => undefined,
    });
    const expiredEvents = async () =>
      Number(
        (
          await testDb.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('stream_id', '=', `season-${seasonId}`)
            .where('type', '=', 'InvitationExpired')
            .executeTakeFirstOrThrow()
        ).n,
      );
    try {
      for (let i = 0; i < 100 && (await expiredEvents()) === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await running.close();
    }
    expect(await expiredEvents()).toBe(1);
    await catchUp(testDb.db, seasonsProjector, { decode });
    const link = await testDb.db
      .selectFrom('season_links')
      .select('status')
      .where('season_id', '=', seasonId)
      .executeTakeFirstOrThrow();
    expect(link.status).toBe('CANCELED');
  });
});
