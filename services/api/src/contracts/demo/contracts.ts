import type { FastifyInstance } from 'fastify';
import type { StreamState } from '@filiere/event-store';
import { beninDay, narrowDb, parseConfig } from '@filiere/platform';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { findDemoUser, userLoader } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import type { DemoContext, DemoStep } from '../../kernel/module.js';
import { ROLE } from '../../kernel/roles.js';
import { openingWallets, transfer, walletStreamId, type WalletState } from '../../wallet/index.js';
import {
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../commands/delivery-contract-commands.js';
import { debtStreamId, openDebt, type DebtState } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';

const DAY = 86_400_000;

/**
 * Delivery contracts of the demo aggregator's growers in every status, through the command
 * services (no row written by hand): PENDING, CONFIRMED, two DELIVERED ready to run, one
 * COMPLETED that netted a pineapple advance (the advance paid to the grower and its debt
 * opened in one append, then the contract run), one OUTTIME (created and confirmed on a clock
 * ten days back, its date passed, then the OUTTIME command), one CANCELED (hold released).
 */
export const contractsDemoStep: DemoStep = {
  name: 'contracts-delivery',
  async run(ctx: DemoContext) {
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadContractsDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadContractsDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<ContractFactsTables>()(ctx.db);
  const load = userLoader(ctx.db);
  const aggregator = (await load((await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj')).id))!;
  const growers = await db
    .selectFrom('growers as g')
    .innerJoin('plots as p', 'p.grower_id', 'g.id')
    .select(['g.id', 'g.user_id', 'p.id as plot_id'])
    .where('g.cluster_id', '=', aggregator.cluster_id!)
    .where('g.deactivated_at', 'is', null)
    .orderBy('g.reference')
    .orderBy('p.id')
    .execute();
  const distinct = [...new Map(growers.map((g) => [g.id, g])).values()];
  if (distinct.length === 0)
    throw new Error('demo contracts: no grower in the aggregator’s cluster');
  const grower = (i: number) => distinct[i % distinct.length]!;
  const growerUser = async (i: number) => (await load(grower(i).user_id))!;

  const commands = new DeliveryContractCommands(db, app.commands);
  const create = (i: number, amount: number, quantity: number) =>
    commands.create(aggregator, {
      growerId: grower(i).id,
      productId: grower(i).plot_id,
      quantity,
      amount,
    });
  // Benin's day: from 23:00 UTC the contracts created now are already tomorrow's.
  const today = beninDay(new Date());

  // PENDING: waiting for the grower.
  await create(0, 90_000, 1.5);
  // CONFIRMED: ready for delivery.
  const confirmed = await create(1, 120_000, 2);
  await commands.confirm(await growerUser(1), confirmed.contractId);
  // DELIVERED: two ready to run (one delivered short, one in full).
  for (const [i, amount, quantity, delivered] of [
    [2, 150_000, 2.5, 2.2],
    [3, 100_000, 2, 2],
  ] as const) {
    const c = await create(i, amount, quantity);
    await commands.confirm(await growerUser(i), c.contractId);
    await commands.recordDelivery(aggregator, c.contractId, {
      quantity: delivered,
      deliveredOn: today,
    });
  }

  // COMPLETED with a netting: a 40,000 pineapple advance paid and owed, then the contract run.
  const indebted = await growerUser(4);
  await advance(app, aggregator, indebted, grower(4).id, 'demo-advance-ananas-1', 40_000);
  const paid = await create(4, 150_000, 2);
  await commands.confirm(indebted, paid.contractId);
  await commands.recordDelivery(aggregator, paid.contractId, { quantity: 2, deliveredOn: today });
  await catchUp(ctx.db, contractsProjector, {
    decode: catalogueDecoder(app.eventStore.catalogue),
  });
  await app.contracts.settler.settle(paid.contractId);

  // OUTTIME: made and confirmed ten days ago for three days ago, never delivered.
  const past = new DeliveryContractCommands(
    db,
    app.commands,
    () => new Date(Date.now() - 10 * DAY),
  );
  const late = await past.create(aggregator, {
    growerId: grower(5).id,
    productId: grower(5).plot_id,
    quantity: 1,
    amount: 80_000,
    deliveryDate: beninDay(new Date(Date.now() - 3 * DAY)),
  });
  await past.confirm(await growerUser(5), late.contractId);
  await commands.markOutOfTime(late.contractId);
  // CANCELED: its hold released.
  const canceled = await create(0, 60_000, 1);
  await commands.cancel(aggregator, canceled.contractId);
}

/**
 * A pineapple advance from the aggregator to a grower, as the requests flow makes one: the
 * money moved (the wallet's `transfer`, the grower's wallet opened if need be) and the debt
 * opened, in one append.
 */
async function advance(
  app: FastifyInstance,
  aggregator: SignedInUser,
  grower: SignedInUser,
  growerId: string,
  debtId: string,
  amount: number,
): Promise<void> {
  const from = walletStreamId(aggregator.wallet_id);
  const to = walletStreamId(grower.wallet_id);
  const debt = debtStreamId(debtId);
  await app.commands.handle({
    streams: [from, to, debt],
    metadata: { userId: aggregator.id },
    decide: openingWallets(
      [{ walletId: grower.wallet_id, ownerUserId: grower.id }],
      (states: Record<string, StreamState>) => {
        const moved = transfer(
          {
            source: states[from]!.state as WalletState,
            destination: states[to]!.state as WalletState,
          },
          {
            reference: `AVA-${debtId}`,
            sourceWalletId: aggregator.wallet_id,
            destinationWalletId: grower.wallet_id,
            amount,
            reason: 'Avance sur ananas',
          },
          {
            userId: aggregator.id,
            role: ROLE.INDUSTRIAL,
            walletId: aggregator.wallet_id,
            clusterId: aggregator.cluster_id,
          },
          {
            recipient: {
              userId: grower.id,
              role: ROLE.GROWER,
              clusterId: grower.cluster_id,
              status: 'ACTIVE',
            },
          },
        );
        const opened = openDebt(
          states[debt]!.state as DebtState,
          {
            debtId,
            kind: 'AVANCE_SUR_ANANAS',
            creditorUserId: aggregator.id,
            debtorGrowerId: growerId,
            principal: amount,
          },
          { now: new Date().toISOString() },
        );
        return { result: null, writes: [...moved.writes, ...opened.writes] } as never;
      },
    ),
  });
}
