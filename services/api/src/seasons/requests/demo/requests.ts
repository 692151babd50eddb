import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import type { ActorsTables } from '../../../actors/index.js';
import { findDemoUser, type IdentityTables, identityUsers } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import type { EventStoreTables } from '@filiere/event-store';
import { DEMO_SEASON_LABEL } from '../../demo/seasons.js';

/**
 * Growers' requests in 'Saison 2026–2027' for the demo aggregator's growers (the Allada
 * cluster), through the real routes: INPUT requests for NPK and urea (providers assigned by
 * the inputs step) — three accepted (codes for the deliveries demo), one rejected, others
 * waiting, one for potassium sulphate (no provider: it stays pending) —, PINEAPLE advances
 * (one paid, one rejected, one pending), SOCIAL financings asked of the demo SFD (one paid
 * after the administrator funds the SFD, one rejected, one pending). Runs after the inputs.
 */
export const requestsDemoStep: DemoStep = {
  name: 'season-requests',
  async run(ctx: DemoContext) {
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadRequestsDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadRequestsDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<IdentityTables & ActorsTables & EventStoreTables>()(ctx.db);
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const admin = await findDemoUser(ctx.db, 'admin@demo.filiere.bj');
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  const sfd = await findDemoUser(ctx.db, 'sfd@demo.filiere.bj');

  const call = async <T>(
    who: { id: string },
    role: RoleCode,
    url: string,
    payload: unknown,
  ): Promise<T> => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${app.jwt.sign({ sub: who.id, role })}`,
        'idempotency-key': randomUUID(),
      },
      payload: payload as Record<string, unknown>,
    });
    if (res.statusCode >= 300) {
      throw new Error(`demo requests: POST ${url} answered ${res.statusCode} ${res.body}`);
    }
    return res.json() as T;
  };

  // The season's id from the log (the read model is not projected while the demo loads).
  const created = await db
    .selectFrom('events')
    .select('data')
    .where('type', '=', 'SeasonCreated')
    .orderBy('position', 'desc')
    .execute();
  const season = created
    .map((e) => e.data as { seasonId: number; label: string })
    .find((d) => d.label === DEMO_SEASON_LABEL);
  if (!season) throw new Error('demo requests: the demo season is missing');
  const seasonId = season.seasonId;

  // The aggregator's cluster's active growers, by reference (deterministic).
  const growers = await db
    .selectFrom('growers as g')
    .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
    .leftJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
    .select(['g.id', 'g.user_id', 'c.user_id as coop_user'])
    .where('g.cluster_id', '=', aggregator.clusterId!)
    .where('g.deactivated_at', 'is', null)
    .where('u.is_active', '=', true)
    .orderBy('g.reference')
    .limit(12)
    .execute();
  if (growers.length < 8) throw new Error('demo requests: too few growers in the Allada cluster');

  /** Filed by the grower itself, or by its cooperative's user for every second one. */
  const file = (index: number, body: Record<string, unknown>) => {
    const g = growers[index]!;
    const byCoop = index % 2 === 1 && g.coop_user;
    return call<{ requestId: number }>(
      byCoop ? { id: g.coop_user! } : { id: g.user_id },
      byCoop ? ROLE.FARMER_ORGANIZATION : ROLE.GROWER,
      '/api/season-requests',
      { seasonId, growerId: g.id, ...body },
    );
  };
  const input = (i: number, fertilizerId: number, quantity: number) =>
    file(i, { type: 'INPUT', fertilizerId, quantity });
  const pineapple = (i: number, amount: number, quantity: number) =>
    file(i, { type: 'PINEAPLE', amount, quantity });
  const social = (i: number, amount: number) =>
    file(i, { type: 'SOCIAL', amount, sfdUserId: sfd.id });

  const accept = (who: { id: string }, role: RoleCode, ids: number[]) =>
    call<{ done: number }>(who, role, '/api/user-cluster-grower/accept-requests', { ids });
  const reject = (who: { id: string }, role: RoleCode, id: number, reason: string) =>
    call(who, role, '/api/user-cluster-grower/reject-requests', [{ id, reason }]);

  // The requests come in over the first weeks of the season (Benin time).
  const at = (daysAgo: number, hour = 10) => ctx.clock.set(ctx.clock.beninMoment(daysAgo, hour));
  await at(140);
  // INPUT: NPK (1) and urea (2) have providers; potassium sulphate (3) has none.
  const inputs = [
    await input(0, 1, 100),
    await input(1, 2, 80),
    await input(2, 1, 60),
    await input(3, 1, 50),
    await input(4, 2, 40),
    await input(5, 1, 30),
    await input(6, 3, 25),
  ];
  await at(137);
  const accepted = await accept(
    aggregator,
    ROLE.INDUSTRIAL,
    inputs.slice(0, 3).map((r) => r.requestId),
  );
  if (accepted.done !== 3) throw new Error('demo requests: the INPUT acceptances failed');
  await reject(
    aggregator,
    ROLE.INDUSTRIAL,
    inputs[3]!.requestId,
    'Quantité déjà couverte par la coopérative',
  );

  await at(132);
  // PINEAPLE advances: one paid by the aggregator, one rejected, one pending.
  const advances = [
    await pineapple(0, 150_000, 2_000),
    await pineapple(7, 90_000, 1_200),
    await pineapple(2, 60_000, 800),
  ];
  await at(130, 15);
  const paid = await accept(aggregator, ROLE.INDUSTRIAL, [advances[0]!.requestId]);
  if (paid.done !== 1) throw new Error('demo requests: the PINEAPLE acceptance failed');
  await reject(aggregator, ROLE.INDUSTRIAL, advances[1]!.requestId, 'Plafond d’avances atteint');

  await at(127);
  // SOCIAL: the administrator funds the SFD (admins may pay anyone), which pays one.
  const wallets = await db
    .selectFrom(identityUsers().as('users'))
    .select(['id', 'wallet_id'])
    .where('id', 'in', [admin.id, sfd.id])
    .execute();
  const walletOf = (id: string) => wallets.find((w) => w.id === id)!.wallet_id;
  const supply = await call<{ reference: string }>(admin, ROLE.ADMIN, '/api/supply', {
    amount: 1_000_000,
    walletId: walletOf(admin.id),
    accountType: 'BANK',
    bank: 'BAB',
  });
  await call(superAdmin, ROLE.SUPER_ADMIN, '/api/supply/validate-bank-supply', {
    reference: supply.reference,
  });
  await call(admin, ROLE.ADMIN, '/api/wallet/make-transfer', {
    source: walletOf(admin.id),
    destination: walletOf(sfd.id),
    amount: 500_000,
    reason: 'Dotation du fonds de financement social',
  });
  await at(125);
  const financings = [await social(1, 100_000), await social(3, 75_000), await social(4, 50_000)];
  await at(121);
  const financed = await accept(sfd, ROLE.SFD, [financings[0]!.requestId]);
  if (financed.done !== 1) throw new Error('demo requests: the SOCIAL acceptance failed');
  await reject(sfd, ROLE.SFD, financings[1]!.requestId, 'Dossier incomplet');

  ctx.logger.info(
    { inputs: inputs.length, advances: advances.length, financings: financings.length },
    'demo season requests filed, accepted and rejected',
  );
}
