import { createLogger, narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../database.js';
import { product } from '../../../modules.js';
import { loadDemoSteps } from '../../../test-app.js';

describe('season requests demo', () => {
  const testDb = useTestDatabase<Database>();

  it('files requests of every type and status for the Allada growers, once', async () => {
    const logger = createLogger('silent', false);
    const steps = product.demo.slice(
      0,
      product.demo.findIndex((s) => s.name === 'season-requests') + 1,
    );
    expect(steps.at(-1)?.name).toBe('season-requests');
    const ran = await loadDemoSteps({ db: testDb.db, logger }, steps);
    expect(ran).toContain('season-requests');
    for (const projector of product.projectors) {
      await catchUp(testDb.db, projector, {
        decode: catalogueDecoder(product.catalogue),
        publish: async () => undefined,
      });
    }
    const db = narrowDb<Database>()(testDb.db);
    const rows = await db
      .selectFrom('season_requests')
      .select(['type', 'status', 'code', 'delivery_status'])
      .execute();
    const count = (type: string, status: string) =>
      rows.filter((r) => r.type === type && r.status === status).length;
    expect(count('INPUT', 'CONFIRMED')).toBe(3);
    expect(count('INPUT', 'REJECTED')).toBe(1);
    expect(count('INPUT', 'CREATED')).toBe(3);
    for (const type of ['PINEAPLE', 'SOCIAL']) {
      expect([count(type, 'CREATED'), count(type, 'CONFIRMED'), count(type, 'REJECTED')]).toEqual([
        1, 1, 1,
      ]);
    }
    const accepted = rows.filter((r) => r.type === 'INPUT' && r.status === 'CONFIRMED');
    expect(accepted.every((r) => /^AGW_\d{6}$/.test(r.code ?? ''))).toBe(true);
    expect(accepted.every((r) => r.delivery_status === 'CREATED')).toBe(true);
    const debts = await db.selectFrom('grower_debts').select(['kind', 'principal']).execute();
    expect(debts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'AVANCE_SUR_ANANAS', principal: 150_000 }),
        expect.objectContaining({ kind: 'FINANCEMENT_SOCIAL', principal: 100_000 }),
      ]),
    );
    // A second load writes nothing.
    expect(await loadDemoSteps({ db: testDb.db, logger }, steps)).toEqual([]);
  }, 300_000);
});
