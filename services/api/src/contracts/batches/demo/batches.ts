import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import type { ActorsTables } from '../../../actors/index.js';
import { findDemoUser, type IdentityTables, identityUsers } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../../wallet/index.js';

/** How many growers the demo parent contract has, and each one's contract. */
export const DEMO_BATCH = { growers: 6, quantity: '2.5', amount: 75_000 } as const;

/**
 * The parent contract of the demo: the demo aggregator makes one LIVRAISON_PARENT for six
 * growers of its cluster (their first plot, 2.5 t, 75 000 F CFA each) through the real
 * routes — the selection becomes a preview, 'Valider' creates the parent and its six
 * sub-contracts with their holds. Smaller amounts when the wallet holds less (the other
 * demo contracts hold part of it); none when it holds nothing. Needs the growers' demo.
 */
export const contractBatchesDemoStep: DemoStep = {
  name: 'contracts-batches',
  async run(ctx: DemoContext) {
    // The batch is today’s work.
    await ctx.clock.set(ctx.clock.beninMoment(0, 11));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadBatchDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadBatchDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<Pick<IdentityTables, 'users'> & Pick<ActorsTables, 'growers' | 'plots'>>()(
    ctx.db,
  );
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  const { cluster_id: clusterId, wallet_id: walletId } = await db
    .selectFrom(identityUsers().as('users'))
    .select(['cluster_id', 'wallet_id'])
    .where('id', '=', aggregator.id)
    .executeTakeFirstOrThrow();
  if (!clusterId) throw new Error('demo contract batches: the demo aggregator has no cluster');
  const growers = await db
    .selectFrom('growers as g')
    .select(['g.id'])
    .where('g.cluster_id', '=', clusterId)
    .where('g.deactivated_at', 'is', null)
    .where((eb) =>
      eb.exists(eb.selectFrom('plots as p').select('p.id').whereRef('p.grower_id', '=', 'g.id')),
    )
    .orderBy('g.reference')
    .limit(DEMO_BATCH.growers)
    .execute();
  if (growers.length === 0) {
    ctx.logger.warn('demo contract batches: no grower with a plot in the aggregator’s cluster');
    return;
  }
  const plots = await db
    .selectFrom('plots')
    .select(['id', 'grower_id'])
    .where(
      'grower_id',
      'in',
      growers.map((g) => g.id),
    )
    .orderBy('seq')
    .execute();
  const wallet = (await app.eventStore.readStream(`wallet-${walletId}`))
    .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
    .reduce(evolveWallet, initialWalletState());
  // At most half of what is available, so the other demo contracts keep room.
  const amount = Math.min(
    DEMO_BATCH.amount,
    Math.floor(Math.max(0, wallet.availableBalance) / 2 / growers.length / 1000) * 1000,
  );
  if (amount <= 0) {
    ctx.logger.warn('demo contract batches: the demo aggregator’s wallet holds nothing available');
    return;
  }
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: aggregator.id, role: ROLE.INDUSTRIAL })}`,
  };
  const preview = await app.inject({
    method: 'POST',
    url: '/api/contracts/batches/from-growers',
    headers,
    payload: {
      rows: growers.map((g) => ({
        growerId: g.id,
        productId: plots.find((p) => p.grower_id === g.id)!.id,
        quantity: DEMO_BATCH.quantity,
        amount,
      })),
    },
  });
  if (preview.statusCode !== 201) {
    throw new Error(
      `demo contract batches: preview answered ${preview.statusCode} ${preview.body}`,
    );
  }
  const { previewId } = preview.json() as { previewId: string };
  const validated = await app.inject({
    method: 'POST',
    url: `/api/contracts/batches/${previewId}/validate`,
    headers: { ...headers, 'idempotency-key': `demo-batch-${previewId}` },
  });
  if (validated.statusCode !== 201) {
    throw new Error(
      `demo contract batches: validate answered ${validated.statusCode} ${validated.body}`,
    );
  }
}
