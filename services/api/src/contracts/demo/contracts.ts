import type { FastifyInstance } from 'fastify';
import { handleCommand, streamRef } from '@filiere/event-store';
import { beninDay, narrowDb, parseConfig } from '@filiere/platform';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { createSms, findDemoUser, userLoader, type SmsSender } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import type { DemoContext, DemoStep } from '../../kernel/module.js';
import { ROLE } from '../../kernel/roles.js';
import { transfer, walletStream, walletStreamId } from '../../wallet/index.js';
import { debtStreamType } from '../catalogue.js';
import { AcceptanceCodes } from '../commands/acceptance-code.js';
import { opensWallet } from '../commands/opens-wallet.js';
import {
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../commands/delivery-contract-commands.js';
import { debtStreamId, openDebt } from '../domain/index.js';
import { contractsProjector } from '../read-model/index.js';

const DAY = 86_400_000;

/**
 * Delivery contracts of the demo aggregator's growers in every status, through the command
 * services (no row written by hand), spread over the season on the demo's clock: one CANCELED
 * four months ago (hold released), one COMPLETED that netted a pineapple advance (the advance
 * paid to the grower and its debt opened in one append, then the contract made, confirmed,
 * delivered and run, three to two months ago), one OUTTIME (made two months ago, its date
 * passed), two DELIVERED ready to run (last week and three days ago), one CONFIRMED for in two
 * weeks, one PENDING made today. The growers of a cooperative have some confirmed by its user
 * (the Allada cooperative's is `cooperative@`) with the code the grower received by SMS — the
 * demo reads it from the offer it has just written to the outbox, as the grower would read it
 * on his phone — the others by the grower himself; the first grower (`producteur@`) has the
 * canceled and the pending one.
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
    .leftJoin('cooperatives as c', (join) =>
      join.onRef('c.organization_id', '=', 'g.cooperative_id').on('c.deactivated_at', 'is', null),
    )
    .select(['g.id', 'g.user_id', 'p.id as plot_id', 'c.user_id as coop_user_id'])
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
  /** The user of the grower's cooperative, who confirms for its members (else the grower). */
  const cooperativeUser = async (i: number) =>
    (await load(grower(i).coop_user_id ?? grower(i).user_id))!;

  // The offers go to the outbox like any SMS; the demo keeps each contract's code as the
  // grower reads it in the offer, to give it to the cooperative.
  const outbox = createSms(app.deps.config, ctx.db, app.deps.logger);
  const codes = new Map<string, string>();
  const sms: SmsSender = {
    async send(message) {
      await outbox.send(message);
      const offer = /contrat (LIV-[0-9A-F]+),.* code (\d{6})$/.exec(message.text);
      if (offer) codes.set(offer[1]!, offer[2]!);
    },
    within: (trx) => outbox.within(trx),
  };
  const commands = new DeliveryContractCommands(
    db,
    app.commands,
    ctx.clock.now,
    sms,
    AcceptanceCodes.fromSecret(app.deps.config.JWT_SECRET),
  );
  /** The cooperative (with the grower's code) or, without one, the grower confirms. */
  const confirmBy = async (i: number, contract: { contractId: string; reference: string }) =>
    commands.confirm(await cooperativeUser(i), contract.contractId, codes.get(contract.reference));
  const at = (daysAgo: number, hour = 10) => ctx.clock.set(ctx.clock.beninMoment(daysAgo, hour));
  /** Benin's day `days` after the clock's (the delivery dates the contracts are made for). */
  const dayAfter = (days: number) => beninDay(new Date(ctx.clock.now().getTime() + days * DAY));
  const create = (i: number, amount: number, quantity: number, deliveryInDays: number) =>
    commands.create(aggregator, {
      growerId: grower(i).id,
      productId: grower(i).plot_id,
      quantity,
      amount,
      deliveryDate: dayAfter(deliveryInDays),
    });
  const deliver = (contractId: string, quantity: number) =>
    commands.recordDelivery(aggregator, contractId, {
      quantity,
      deliveredOn: beninDay(ctx.clock.now()),
    });

  // In the order they happened over the season (the aggregator's wallet holds and releases
  // in that order), each contract at its own moments (Benin time).

  // CANCELED over three months ago: its hold released.
  await at(112);
  const canceled = await create(0, 60_000, 1, 30);
  await at(110, 15);
  await commands.cancel(aggregator, canceled.contractId);

  // COMPLETED with a netting: a 40,000 pineapple advance paid and owed, then the contract
  // made, confirmed, delivered and run, three to two months ago.
  await at(100);
  const indebted = await growerUser(4);
  await advance(app, aggregator, indebted, grower(4).id, 'demo-advance-ananas-1', 40_000, ctx);
  await at(96);
  const paid = await create(4, 150_000, 2, 30);
  await at(95, 16);
  await commands.confirm(indebted, paid.contractId);
  await at(70, 8);
  await deliver(paid.contractId, 2);
  await at(69, 11);
  await catchUp(ctx.db, contractsProjector, {
    decode: catalogueDecoder(app.eventStore.catalogue),
  });
  await app.contracts.settler.settle(paid.contractId);

  // OUTTIME: made and confirmed two months ago for a date six weeks ago, never delivered.
  await at(60);
  const late = await create(5, 80_000, 1, 15);
  await at(59, 15);
  await commands.confirm(await growerUser(5), late.contractId);
  await at(44, 7);
  await commands.markOutOfTime(late.contractId);

  // DELIVERED: two ready to run (one delivered short last week, one in full three days ago).
  await at(40);
  const short = await create(2, 150_000, 2.5, 30);
  await at(38, 17);
  await commands.confirm(await growerUser(2), short.contractId);
  await at(25);
  const full = await create(3, 100_000, 2, 20);
  await at(24, 16);
  await confirmBy(3, full);
  await at(8, 9);
  await deliver(short.contractId, 2.2);

  // CONFIRMED: ready for delivery in two weeks.
  await at(5);
  const confirmed = await create(1, 120_000, 2, 16);
  await at(4, 18);
  await confirmBy(1, confirmed);

  await at(3, 9);
  await deliver(full.contractId, 2);

  // PENDING: made today for the first grower (the demo account `producteur@`), waiting for it
  // or its cooperative (`cooperative@`) to confirm.
  await at(0);
  await create(0, 90_000, 1.5, 21);
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
  ctx: DemoContext,
): Promise<void> {
  await handleCommand(app.commands, {
    streams: {
      from: streamRef(walletStream, walletStreamId(aggregator.wallet_id)),
      to: streamRef(walletStream, walletStreamId(grower.wallet_id)),
      debt: streamRef(debtStreamType, debtStreamId(debtId)),
    },
    open: { to: opensWallet(grower.wallet_id, grower.id) },
    metadata: { userId: aggregator.id },
    decide: ({ from, to, debt }) => {
      const moved = transfer(
        { source: from, destination: to },
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
        debt,
        {
          debtId,
          kind: 'AVANCE_SUR_ANANAS',
          creditorUserId: aggregator.id,
          debtorGrowerId: growerId,
          principal: amount,
        },
        { now: ctx.clock.now().toISOString() },
      );
      return { result: null, writes: [...moved.writes, ...opened.writes] };
    },
  });
}
