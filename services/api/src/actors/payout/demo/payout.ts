import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import {
  createSms,
  findDemoUser,
  identityUsers,
  membersOf,
  userLoader,
  type IdentityTables,
} from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { PayoutRequestsService } from '../service.js';
import type { PayoutTables } from '../tables.js';

/** The demo accounts that ask and decide. */
const MANAGER = 'gestionnaire@demo.filiere.bj';
const SUPER_ADMIN = 'superadmin@demo.filiere.bj';

/**
 * Payout requests of the demo, through the real service (so each has its events and SMS): the
 * cluster manager asks for a new mobile money number for two growers of its cluster; the super
 * admin approves the first (its history shows the change), the second waits on 'Demandes de
 * changement de compte'. The growers are the growers step's (looked up, never created here):
 * the last two of the cluster by name, paid on mobile money.
 */
export const payoutDemoStep: DemoStep = {
  name: 'actors-payout',
  async run(ctx: DemoContext) {
    // The payout accounts were given before the season.
    await ctx.clock.set(ctx.clock.beninMoment(168, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadPayoutDemo(app);
    } finally {
      await app.close();
    }
  },
};

/** The new numbers asked for (MTN and MOOV numbers no demo account holds). */
export const DEMO_PAYOUT_NUMBERS = ['+2290161990011', '+2290196990022'] as const;

async function loadPayoutDemo(app: FastifyInstance): Promise<void> {
  const { config, db, logger } = app.deps;
  const own = narrowDb<PayoutTables & IdentityTables>()(db);
  const load = userLoader(db);
  const manager = await load((await findDemoUser(db, MANAGER)).id);
  const superAdmin = await load((await findDemoUser(db, SUPER_ADMIN)).id);
  if (!manager?.cluster_id || superAdmin?.role_code !== ROLE.SUPER_ADMIN) {
    throw new Error('demo cluster manager or super admin missing (run the identity demo step)');
  }
  const growers = await own
    .selectFrom(identityUsers().as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id'])
    .where('r.code', '=', ROLE.GROWER)
    .where('u.cluster_id', '=', manager.cluster_id)
    .where('u.deleted_at', 'is', null)
    .where('u.momo_account_number', 'is not', null)
    .orderBy('u.lastname', 'desc')
    .orderBy('u.firstname', 'desc')
    .limit(2)
    .execute();
  if (growers.length < 2) {
    logger.info('payout demo: fewer than two growers in the demo cluster, nothing to ask');
    return;
  }
  const service = new PayoutRequestsService(
    db,
    membersOf(app),
    createSms(config, db, logger),
    logger,
  );
  const requests = [];
  for (const [i, grower] of growers.entries()) {
    requests.push(
      await service.request(manager, {
        userId: grower.id,
        momoAccountNumber: DEMO_PAYOUT_NUMBERS[i]!,
        bankName: null,
        bankAccountNumber: null,
        comment: 'Le producteur a changé de numéro mobile money',
      }),
    );
  }
  await service.approve(superAdmin, requests[0]!.id);
}
