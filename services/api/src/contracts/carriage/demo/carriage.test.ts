import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { createLogger, type Logger } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { clustersDemoStep } from '../../../actors/clusters/demo/clusters.js';
import { carriersDemoStep } from '../../../actors/carriers/demo/carriers.js';
import { buildApp } from '../../../app.js';
import type { Database } from '../../../database.js';
import { identityDemoStep } from '../../../identity/demo/identity.js';
import { runDemoSteps, type DemoStep } from '../../../kernel/index.js';
import { product } from '../../../modules.js';
import { walletDemoStep } from '../../../wallet/demo/wallet.js';
import { carriageContractsProjector } from '../read-model/projector.js';
import { carriageDemoStep } from './carriage.js';

const load = (ctx: { db: Kysely<Database>; logger: Logger }, steps: DemoStep[]) =>
  runDemoSteps({ ...ctx, openApp: (config, clock) => buildApp({ config, ...ctx, clock }) }, steps);

describe('carriage contracts demo data', () => {
  const testDb = useTestDatabase<Database>();

  it('two carriage contracts of the demo aggregator with the demo carriers, one paid, once', async () => {
    const logger = createLogger('silent', false);
    const steps = [
      identityDemoStep,
      clustersDemoStep,
      carriersDemoStep,
      walletDemoStep,
      carriageDemoStep,
    ];
    expect(await load({ db: testDb.db, logger }, steps)).toContain('contracts-carriage');
    expect(await load({ db: testDb.db, logger }, steps)).toEqual([]);
    await catchUp(testDb.db, carriageContractsProjector, {
      decode: catalogueDecoder(product.catalogue),
    });
    const rows = await testDb.db
      .selectFrom('carriage_contracts')
      .select(['status', 'amount'])
      .orderBy('amount')
      .execute();
    expect(rows.map((r) => [r.status, Number(r.amount)])).toEqual([
      ['CREATED', 30_000],
      ['PAID', 45_000],
    ]);
  });
});
