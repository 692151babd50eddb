import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import type { ActorsTables } from '../../../actors/index.js';
import { findDemoUser, type IdentityTables, identityUsers } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../../wallet/index.js';
import type { CarriageTables } from '../tables.js';
import { portoNovoDay } from '../domain/carriage.js';

/** The demo's carriage contracts: one to come (held), one done and paid to its carrier. */
export const DEMO_CARRIAGE = [
  { daysFromToday: 7, amount: 30_000, pay: false, description: 'Ramassage des producteurs' },
  { daysFromToday: -2, amount: 45_000, pay: true, description: 'Livraison à l’usine' },
] as const;

/**
 * The demo aggregator hires the demo carriers of its cluster through the real routes: two
 * carriage contracts (the first carrier's first vehicle, then the second's), the second paid.
 * Runs after the contracts' own demo; skipped when the aggregator already has carriage
 * contracts (a second load writes nothing) or its wallet holds too little.
 */
export const carriageDemoStep: DemoStep = {
  name: 'contracts-carriage',
  async run(ctx: DemoContext) {
    // The carriage contracts are today’s work.
    await ctx.clock.set(ctx.clock.beninMoment(0, 12));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadCarriageDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadCarriageDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<
    Pick<IdentityTables, 'users'> & Pick<ActorsTables, 'carriers' | 'vehicles'> & CarriageTables
  >()(ctx.db);
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  const { cluster_id: clusterId, wallet_id: walletId } = await db
    .selectFrom(identityUsers().as('users'))
    .select(['cluster_id', 'wallet_id'])
    .where('id', '=', aggregator.id)
    .executeTakeFirstOrThrow();
  const existing = await db
    .selectFrom('carriage_contracts')
    .select('id')
    .where('aggregator_user_id', '=', aggregator.id)
    .executeTakeFirst();
  if (existing || !clusterId) return;
  const carriers = await db
    .selectFrom('carriers as c')
    .innerJoin('vehicles as v', 'v.carrier_id', 'c.id')
    .select(['c.id', 'v.id as vehicleId'])
    .where('c.cluster_id', '=', clusterId)
    .where('c.deactivated_at', 'is', null)
    .orderBy('c.reference')
    .orderBy('v.registration')
    .execute();
  const distinct = carriers.filter((c, i) => carriers.findIndex((o) => o.id === c.id) === i);
  if (distinct.length === 0) {
    ctx.logger.warn(
      'demo carriage contracts: no carrier with a vehicle in the aggregator’s cluster',
    );
    return;
  }
  const wallet = (await app.eventStore.readStream(`wallet-${walletId}`))
    .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
    .reduce(evolveWallet, initialWalletState());
  const total = DEMO_CARRIAGE.reduce((sum, c) => sum + c.amount, 0);
  if (wallet.availableBalance < total) {
    ctx.logger.warn('demo carriage contracts: the demo aggregator’s wallet holds too little');
    return;
  }
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: aggregator.id, role: ROLE.INDUSTRIAL })}`,
  };
  const today = new Date();
  for (const [i, demo] of DEMO_CARRIAGE.entries()) {
    const carrier = distinct[i % distinct.length]!;
    const day = portoNovoDay(new Date(today.getTime() + demo.daysFromToday * 86_400_000));
    const made = await app.inject({
      method: 'POST',
      url: '/api/contracts/carriage-contract',
      headers: { ...headers, 'idempotency-key': `demo-carriage-${i}` },
      payload: {
        carrierId: carrier.id,
        vehicleId: carrier.vehicleId,
        transportDate: day,
        amount: demo.amount,
        description: demo.description,
      },
    });
    if (made.statusCode !== 201) {
      throw new Error(`demo carriage contracts: create answered ${made.statusCode} ${made.body}`);
    }
    if (!demo.pay) continue;
    const { contractId } = made.json() as { contractId: string };
    const paid = await app.inject({
      method: 'POST',
      url: `/api/contracts/carriage-contract/${contractId}/pay`,
      headers,
    });
    if (paid.statusCode !== 200) {
      throw new Error(`demo carriage contracts: pay answered ${paid.statusCode} ${paid.body}`);
    }
  }
}
