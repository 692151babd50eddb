import type { FastifyInstance } from 'fastify';
import { parseConfig } from '@filiere/platform';
import { DEMO_CLUSTER, findDemoUser, membersOf, type MembersApp } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { DEMO_SECOND_CLUSTER } from '../../clusters/demo/clusters.js';
import { replaceDetails, suppliersDb } from '../queries.js';

/** The demo's input supplier account (identity's demo) becomes a supplier of the Allada cluster. */
const DEMO_SUPPLIER_EMAIL = 'fournisseur@demo.filiere.bj';

/** Fertilizer ids of the seeded catalogue (migrations/20261125_0630_input_suppliers.ts). */
const NPK = 1;
const UREE = 2;
const SULFATE_POTASSIUM = 3;
const REJETS_CAYENNE = 6;
const REJETS_PAIN_DE_SUCRE = 7;
const FILM = 8;

/**
 * Three input suppliers of the pineapple belt (Atlantique) with their delivery points and
 * fertilizers: the demo supplier account (Intrants du Sud SARL, Allada), and two registered
 * through POST /api/input-provider as the super admin — one in each cluster.
 */
export const suppliersDemoStep: DemoStep = {
  name: 'actors-suppliers',
  async run(ctx: DemoContext) {
    // The input suppliers were registered before the season.
    await ctx.clock.set(ctx.clock.beninMoment(170, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadSuppliersDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadSuppliersDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = suppliersDb(ctx.db);
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const clusterId = async (label: string) =>
    (
      await db
        .selectFrom('clusters')
        .select('id')
        .where('label', '=', label)
        .executeTakeFirstOrThrow()
    ).id;
  const allada = await clusterId(DEMO_CLUSTER);
  const second = await clusterId(DEMO_SECOND_CLUSTER);

  // The demo account: its organisation and user exist (identity's demo); its supplier row,
  // delivery points and fertilizers are this area's, and it joins the Allada cluster.
  const supplier = await findDemoUser(ctx.db, DEMO_SUPPLIER_EMAIL);
  await membersOf(app as unknown as MembersApp).setCluster([supplier.id], allada, superAdmin.id);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('input_suppliers')
      .values({
        organization_id: supplier.organizationId!,
        user_id: supplier.id,
        cluster_id: allada,
        rccm: 'RB/COT/19 B 24518',
        ifu: '3201900054321',
        created_by: superAdmin.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await replaceDetails(trx, row.id, {
      locations: [
        {
          label: 'Magasin central d’Allada',
          address: 'Allada centre, carrefour Sékou, RNIE 2',
          latitude: 6.6651234,
          longitude: 2.1512345,
        },
        {
          label: 'Dépôt de Zè',
          address: 'Zè, marché central',
          latitude: 6.7834567,
          longitude: 2.3001234,
        },
      ],
      fertilizerIds: [NPK, UREE, SULFATE_POTASSIUM],
    });
  });

  const token = app.jwt.sign({ sub: superAdmin.id, role: ROLE.SUPER_ADMIN });
  const register = async (payload: Record<string, unknown>) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/input-provider',
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    if (res.statusCode !== 201) {
      throw new Error(`demo suppliers: POST /api/input-provider ${res.statusCode} ${res.body}`);
    }
  };
  await register({
    denomination: 'Agro-Rejets Tori SARL',
    clusterId: second,
    user: {
      lastname: 'Houngbédji',
      firstname: 'Prudence',
      email: 'agro.rejets.tori@demo.filiere.bj',
      nip: '4401200311',
      phone: '0196450011',
      rccm: 'RB/COT/21 B 30112',
      ifu: '3202100067890',
    },
    locations: [
      {
        label: 'Pépinière de Tori-Bossito',
        address: 'Tori-Bossito, quartier Gare',
        latitude: 6.5031234,
        longitude: 2.1456789,
      },
    ],
    fertilizerIds: [REJETS_CAYENNE, REJETS_PAIN_DE_SUCRE, NPK],
    accountInfo: { providerName: 'Ecobank Bénin', accountNumber: 'BJ0660100100000045678901' },
    momoInfo: { momoNumber: '0196450011' },
  });
  await register({
    denomination: 'Bénin Agri Plast',
    clusterId: allada,
    user: {
      lastname: 'Akpovi',
      firstname: 'Serge',
      email: 'agri.plast@demo.filiere.bj',
      nip: '4401200422',
      phone: '0166450022',
      rccm: 'RB/ABC/22 B 11890',
      ifu: '3202200078901',
    },
    locations: [
      {
        label: 'Entrepôt d’Abomey-Calavi',
        address: 'Abomey-Calavi, Zoca, route de Cotonou',
        latitude: 6.4481234,
        longitude: 2.3551234,
      },
      {
        label: 'Point de vente d’Allada',
        address: 'Allada, marché Ahouanzonmè',
        latitude: 6.6612345,
        longitude: 2.1487654,
      },
    ],
    fertilizerIds: [FILM, UREE, SULFATE_POTASSIUM],
    accountInfo: { providerName: 'Orabank Bénin', accountNumber: 'BJ0580100200000056789012' },
    momoInfo: { momoNumber: '0166450022' },
  });
  ctx.logger.info({ suppliers: 3 }, 'demo input suppliers loaded');
}
