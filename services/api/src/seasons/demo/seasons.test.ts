import { describe, expect, it } from 'vitest';
import { EventCatalogue } from '@filiere/event-store';
import { createLogger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { DEMO_SECOND_AGGREGATOR, findDemoUser } from '../../identity/index.js';
import { seasonEvents } from '../catalogue.js';
import { seasonsProjector } from '../read-model/projector.js';
import { DEMO_SEASON_LABEL, seasonsDemoStep } from './seasons.js';
import type { Database } from '../../database.js';
import { loadDemoSteps } from '../../test-app.js';

const load = loadDemoSteps;

describe('seasons demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('an active season 2026–2027, the demo aggregator CONFIRMED, the second one PENDING', async () => {
    const logger = createLogger('silent', false);
    const steps = [identityDemoStep, seasonsDemoStep];
    expect(await load({ db: testDb.db, logger }, steps)).toEqual(['identity', 'seasons']);
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);
    await catchUp(testDb.db, seasonsProjector, {
      decode: catalogueDecoder(new EventCatalogue(seasonEvents)),
    });
    const season = await testDb.db
      .selectFrom('seasons')
      .selectAll()
      .where('label', '=', DEMO_SEASON_LABEL)
      .executeTakeFirstOrThrow();
    expect(season).toMatchObject({ is_active: true, status: 'ACCEPTED', unit_product_amount: 125 });
    const aggregator = await findDemoUser(testDb.db, 'agregateur@demo.filiere.bj');
    const second = await findDemoUser(testDb.db, DEMO_SECOND_AGGREGATOR);
    const links = await testDb.db
      .selectFrom('season_links')
      .select(['user_id', 'status', 'quantity', 'min_supply_amount'])
      .where('season_id', '=', season.id)
      .orderBy('quantity', 'desc')
      .execute();
    // 100 t at 125 F/kg, 50 t/ha: 2 ha × (350×400 + 300×250 + 450×150) = 565 000 F of
    // fertilizer, plus 10 % of 12 500 000.
    expect(links).toEqual([
      {
        user_id: aggregator.id,
        status: 'CONFIRMED',
        quantity: 100_000,
        min_supply_amount: 1_815_000,
      },
      { user_id: second.id, status: 'PENDING', quantity: 60_000, min_supply_amount: 1_089_000 },
    ]);
  });
});
