import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import {
  DEMO_CLUSTER,
  DEMO_COOPERATIVE_EMAIL,
  findDemoUser,
  giveDemoPassword,
  type IdentityTables,
} from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { DEMO_SECOND_CLUSTER } from '../../clusters/demo/clusters.js';

/**
 * The three demo cooperatives of Benin's pineapple belt (Atlantique), by denomination: the
 * growers' demo step looks them up by these labels (`organizations.denomination`). Allada's
 * representative is the demo account `cooperative@` (it signs in with the demo password).
 */
export const DEMO_COOPERATIVES = [
  {
    label: 'Coopérative des Producteurs d’Ananas d’Allada',
    cluster: DEMO_CLUSTER,
    lastname: 'Tchibozo',
    firstname: 'Mariam',
    phone: '69310101',
    email: DEMO_COOPERATIVE_EMAIL,
    ifu: '3202300000101',
    rccm: 'RB/ALD/21 A 0101',
    bank: 'Ecobank Bénin',
    account: 'BJ066010010010100101010',
  },
  {
    label: 'Coopérative des Producteurs d’Ananas de Zè',
    cluster: DEMO_SECOND_CLUSTER,
    lastname: 'Dossou',
    firstname: 'Bernadette',
    phone: '69310202',
    email: 'coop.ze@demo.filiere.bj',
    ifu: '3202300000202',
    rccm: 'RB/ZE/22 A 0202',
    bank: 'Orabank Bénin',
    account: 'BJ164010020020200202020',
  },
  {
    label: 'Union des Producteurs d’Ananas de Tori-Bossito',
    cluster: DEMO_SECOND_CLUSTER,
    lastname: 'Agbokou',
    firstname: 'Sylvain',
    phone: '69310303',
    email: 'coop.tori@demo.filiere.bj',
    ifu: '3202300000303',
    rccm: 'RB/TOR/22 A 0303',
    bank: 'Ecobank Bénin',
    account: 'BJ066010030030300303030',
  },
] as const;

/**
 * Registers the three demo cooperatives through the real route (identity's members create the
 * organisation and the representative, audited), as the super admin, then gives Allada's
 * representative (`cooperative@`) the demo password. The second cluster is the clusters
 * step's (it runs first); without it, all go to the first.
 */
export const cooperativesDemoStep: DemoStep = {
  name: 'actors-cooperatives',
  async run(ctx: DemoContext) {
    // The cooperatives joined before the season.
    await ctx.clock.set(ctx.clock.beninMoment(176, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadCooperativesDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadCooperativesDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<IdentityTables>()(ctx.db);
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const clusters = await db.selectFrom('clusters').select(['id', 'label']).execute();
  const first = clusters.find((c) => c.label === DEMO_CLUSTER);
  if (!first) throw new Error('demo cooperatives: no demo cluster');
  const clusterOf = (label: string) => (clusters.find((c) => c.label === label) ?? first).id;
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: ROLE.SUPER_ADMIN })}`,
  };
  for (const coop of DEMO_COOPERATIVES) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/farmer-organization/cluster/${clusterOf(coop.cluster)}`,
      headers,
      payload: {
        label: coop.label,
        user: {
          lastname: coop.lastname,
          firstname: coop.firstname,
          phone: coop.phone,
          email: coop.email,
          rccm: coop.rccm,
          ifu: coop.ifu,
        },
        accountInfo: { providerName: coop.bank, accountNumber: coop.account },
        momoInfo: { momoNumber: coop.phone },
      },
    });
    if (res.statusCode !== 201) {
      throw new Error(`demo cooperatives: ${coop.label} answered ${res.statusCode} ${res.body}`);
    }
  }
  await giveDemoPassword(ctx.db, DEMO_COOPERATIVE_EMAIL);
  ctx.logger.info({ cooperatives: DEMO_COOPERATIVES.length }, 'demo cooperatives registered');
}
