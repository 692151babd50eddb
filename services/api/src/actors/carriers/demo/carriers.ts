import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import { DEMO_CLUSTER, findDemoUser, type IdentityTables } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { DEMO_SECOND_CLUSTER } from '../../clusters/demo/clusters.js';

const ALLADA = { department: 'D03', borough: 'C017', district: 'A098', village: 'A098-001' };
const ZE = { department: 'D03', borough: 'C023', district: 'A152', village: 'A152-001' };
const TORI = { department: 'D03', borough: 'C022', district: 'A146', village: 'A146-001' };
const CALAVI = { department: 'D03', borough: 'C016', district: 'A089', village: 'A089-001' };

/** The four demo carriers of the pineapple belt, with their vehicles. */
export const DEMO_CARRIERS = [
  {
    lastname: 'Hounsou',
    firstname: 'Théophile',
    phone: '69320101',
    cluster: DEMO_CLUSTER,
    place: ALLADA,
    address: 'Carrefour Agbanou, route de Cotonou, Allada',
    cars: [
      { carType: 'CAMION', registration: 'AB 1001 RB', emptyWeight: 6500, capacity: 12000 },
      { carType: 'BACHEE', registration: 'AB 1002 RB' },
    ],
  },
  {
    lastname: 'Dossa',
    firstname: 'Célestin',
    phone: '69320202',
    cluster: DEMO_CLUSTER,
    place: CALAVI,
    address: 'Marché d’Akassato, Abomey-Calavi',
    cars: [{ carType: 'TERCEL', registration: 'AC 2001 RB' }],
  },
  {
    lastname: 'Agossa',
    firstname: 'Fidèle',
    phone: '69320303',
    cluster: DEMO_SECOND_CLUSTER,
    place: ZE,
    address: 'Gare routière d’Adjan, Zè',
    cars: [
      { carType: 'PICK_UP', registration: 'ZE 3001 RB', emptyWeight: 1800 },
      { carType: 'TRICYCLE', registration: 'ZE 3002 RB', capacity: 500 },
    ],
  },
  {
    lastname: 'Kiki',
    firstname: 'Bienvenu',
    phone: '69320404',
    cluster: DEMO_SECOND_CLUSTER,
    place: TORI,
    address: 'Avamè centre, Tori-Bossito',
    cars: [{ carType: 'CAMIONNETTE', registration: 'TB 4001 RB' }],
  },
] as const;

/**
 * Registers the four demo carriers with their vehicles through the real route, as the super
 * admin, in the two clusters (the second found by label; the first if missing).
 */
export const carriersDemoStep: DemoStep = {
  name: 'actors-carriers',
  async run(ctx: DemoContext) {
    // The carriers were registered before the season.
    await ctx.clock.set(ctx.clock.beninMoment(172, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadCarriersDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadCarriersDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<IdentityTables>()(ctx.db);
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const clusters = await db.selectFrom('clusters').select(['id', 'label']).execute();
  const first = clusters.find((c) => c.label === DEMO_CLUSTER);
  if (!first) throw new Error('demo carriers: no demo cluster');
  const clusterOf = (label: string) => (clusters.find((c) => c.label === label) ?? first).id;
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: ROLE.SUPER_ADMIN })}`,
  };
  for (const carrier of DEMO_CARRIERS) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/carrier',
      headers,
      payload: {
        clusterId: clusterOf(carrier.cluster),
        user: {
          lastname: carrier.lastname,
          firstname: carrier.firstname,
          phone: carrier.phone,
          ...carrier.place,
        },
        carrier: { address: carrier.address },
        cars: carrier.cars,
        accountInfo: { providerName: 'Ecobank Bénin', accountNumber: `BJ0660100${carrier.phone}` },
        momoInfo: { momoNumber: carrier.phone },
      },
    });
    if (res.statusCode !== 201) {
      throw new Error(`demo carriers: ${carrier.lastname} answered ${res.statusCode} ${res.body}`);
    }
  }
  ctx.logger.info({ carriers: DEMO_CARRIERS.length }, 'demo carriers registered');
}
