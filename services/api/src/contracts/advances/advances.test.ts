import type { FastifyInstance } from 'fastify';
import { advanceReference } from '../../kernel/references.js';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { createLogger, parseConfig } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import { handleCommand, streamRef } from '@filiere/event-store';
import { debtStreamType } from '../catalogue.js';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { findDemoUser, userLoader } from '../../identity/index.js';
import { bearer, seedUser } from '../../identity/test-support.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { runDemoSteps } from '../../kernel/index.js';
import { product } from '../../modules.js';
import { contractEvent, debtStreamId, openDebt, type DebtKind } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';
import { debtRecoveriesProjector } from './read-model/projector.js';

/** The advance families' lists from the growers' debts, and an advance's recoveries. */
describe('advance families (AVANCE_SUR_INTRANT, AVANCE_SUR_ANANAS, FINANCEMENT_SOCIAL)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let db: Kysely<Database>;
  let industrial: SignedInUser;
  let sfd: SignedInUser;
  let other: SignedInUser;
  let growerId: string;

  const open = (debtId: string, kind: DebtKind, creditorUserId: string, principal: number) =>
    handleCommand(app.commands, {
      streams: { debt: streamRef(debtStreamType, debtStreamId(debtId)) },
      decide: ({ debt }) =>
        openDebt(
          debt,
          { debtId, kind, creditorUserId, debtorGrowerId: growerId, principal },
          { now: '2026-11-20T10:00:00.000Z' },
        ),
    });
  const get = (who: SignedInUser, url: string) =>
    app.inject({ method: 'GET', url, headers: bearer(app, who, who.role_code) });

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    db = testDb.db as Kysely<Database>;
    await runDemoSteps(
      { db, logger, openApp: (config, clock) => buildApp({ config, db, logger, clock }) },
      [identityDemoStep],
    );
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db,
      logger,
    });
    const load = userLoader(db);
    industrial = (await load((await findDemoUser(db, 'agregateur@demo.filiere.bj')).id))!;
    sfd = (await load((await seedUser(db, 'ROLE_SFD')).id))!;
    other = (await load((await seedUser(db, 'ROLE_INDUSTRIAL')).id))!;
    const user = await seedUser(db, 'ROLE_GROWER', { clusterId: industrial.cluster_id });
    growerId = (
      await db
        .insertInto('growers')
        .values({
          user_id: user.id,
          cluster_id: industrial.cluster_id!,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await open('request-1', 'AVANCE_SUR_INTRANT', industrial.id, 40_000);
    await open('request-2', 'AVANCE_SUR_ANANAS', industrial.id, 100_000);
    await open('request-3', 'FINANCEMENT_SOCIAL', sfd.id, 25_000);
    await handleCommand(app.commands, {
      streams: { debt: streamRef(debtStreamType, debtStreamId('request-2')) },
      decide: () => ({
        result: null,
        writes: [
          {
            streamId: debtStreamId('request-2'),
            events: [
              contractEvent('DebtRecovered', {
                debtId: 'request-2',
                contractId: 'c-1',
                amount: 60_000,
                recoveredAt: '2026-11-21T10:00:00.000Z',
              }),
            ],
          },
        ],
      }),
    });
    const decode = catalogueDecoder(product.catalogue);
    await catchUp(db, contractsProjector, { decode });
    await catchUp(db, debtRecoveriesProjector, { decode });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists each family for its creditor in the smarts shape, searchable and filtered', async () => {
    const inputs = await get(
      industrial,
      `/api/contracts/smarts/${industrial.id}/AVANCE_SUR_INTRANT`,
    );
    expect(inputs.statusCode).toBe(200);
    expect(inputs.json()).toMatchObject({
      count: 1,
      data: [
        {
          id: 'request-1',
          kind: 'AVANCE_SUR_INTRANT',
          status: 'OPEN',
          meta: { amount: 40_000, recovered: 0, remaining: 40_000 },
        },
      ],
    });
    expect(inputs.json().data[0].reference).toBe(
      advanceReference('AVANCE_SUR_INTRANT', 'request-1'),
    );
    expect(inputs.json().data[0].reference).toMatch(/^AVI-[0-9A-F]{10}$/);
    const pineapple = await get(
      industrial,
      `/api/contracts/smarts/${industrial.id}/AVANCE_SUR_ANANAS?filters=open`,
    );
    expect(pineapple.json()).toMatchObject({
      count: 1,
      data: [{ meta: { recovered: 60_000, remaining: 40_000 } }],
    });
    expect(
      (
        await get(
          industrial,
          `/api/contracts/smarts/${industrial.id}/AVANCE_SUR_ANANAS?filters=repaid`,
        )
      ).json().count,
    ).toBe(0);
    const social = await get(
      sfd,
      `/api/contracts/smarts/${sfd.id}/FINANCEMENT_SOCIAL?q=${inputs.json().data[0].growerReference}`,
    );
    expect(social.json()).toMatchObject({ count: 1, data: [{ id: 'request-3' }] });
    expect(
      (await get(sfd, `/api/contracts/smarts/${sfd.id}/FINANCEMENT_SOCIAL?q=zzz`)).json().count,
    ).toBe(0);
    // Reach: only the creditor (or super admin / admin).
    expect(
      (await get(other, `/api/contracts/smarts/${industrial.id}/AVANCE_SUR_ANANAS`)).statusCode,
    ).toBe(403);
    expect(
      (await get(sfd, `/api/contracts/smarts/${industrial.id}/AVANCE_SUR_INTRANT`)).statusCode,
    ).toBe(403);
  });

  it('shows an advance with the contracts that recovered it; another industrial is refused', async () => {
    const page = await get(industrial, '/api/contracts/advances/request-2/recoveries');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      advance: { id: 'request-2', meta: { remaining: 40_000 } },
      count: 1,
      data: [{ contractId: 'c-1', amount: 60_000, reference: null }],
    });
    expect((await get(other, '/api/contracts/advances/request-2/recoveries')).statusCode).toBe(403);
    expect((await get(industrial, '/api/contracts/advances/nope/recoveries')).statusCode).toBe(404);
  });
});
