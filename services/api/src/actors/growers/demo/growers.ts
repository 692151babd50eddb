import type { FastifyInstance } from 'fastify';
import { narrowDb, parseConfig } from '@filiere/platform';
import {
  DEMO_CLUSTER,
  DEMO_GROWER_EMAIL,
  findDemoUser,
  giveDemoPassword,
  type IdentityTables,
} from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { DEMO_SECOND_CLUSTER } from '../../clusters/demo/clusters.js';
import { DEMO_COOPERATIVES } from '../../cooperatives/demo/cooperatives.js';

/**
 * The growers' demo data: 60 growers of Benin's pineapple belt (Atlantique) with one to three
 * plots each, registered through the real route (POST grower/cluster/{id}: identity's user
 * with its wallet, the grower's row, its plots, the audit events) as the super admin.
 * Allada and Abomey-Calavi are the first cluster's (the Allada cooperative), Zè and
 * Tori-Bossito the second's (the Zè cooperative and the Tori-Bossito union); about one grower
 * in four has no cooperative. Deterministic (a seeded generator): every load gives the same
 * people, plots and coordinates. The first, an Allada grower of the Allada cooperative, is the
 * demo account `producteur@` (Basile Ahouandjinou), given the demo password.
 */
export const growersDemoStep: DemoStep = {
  name: 'actors-growers',
  async run(ctx: DemoContext) {
    // The growers were registered before the season.
    await ctx.clock.set(ctx.clock.beninMoment(174, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadGrowersDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

/** A commune of the demo: its codes, arrondissements (code, village count) and a land box. */
interface Commune {
  name: string;
  code: string;
  cluster: string;
  cooperative: string | null;
  arrondissements: [string, number][];
  /** Coordinates on land: [south, north] latitude, [west, east] longitude. */
  lat: [number, number];
  lon: [number, number];
}

const ATLANTIQUE = 'D03';
const [COOP_ALLADA, COOP_ZE, UNION_TORI] = DEMO_COOPERATIVES.map((c) => c.label);

export const DEMO_COMMUNES: Commune[] = [
  {
    name: 'Allada',
    code: 'C017',
    cluster: DEMO_CLUSTER,
    cooperative: COOP_ALLADA ?? null,
    arrondissements: [
      ['A098', 13],
      ['A099', 8],
      ['A102', 11],
      ['A104', 14],
      ['A106', 19],
      ['A108', 14],
    ],
    lat: [6.62, 6.72],
    lon: [2.1, 2.2],
  },
  {
    name: 'Abomey-Calavi',
    code: 'C016',
    cluster: DEMO_CLUSTER,
    cooperative: COOP_ALLADA ?? null,
    arrondissements: [
      ['A091', 14],
      ['A092', 9],
      ['A093', 9],
      ['A094', 10],
      ['A096', 15],
    ],
    lat: [6.47, 6.58],
    lon: [2.25, 2.35],
  },
  {
    name: 'Zè',
    code: 'C023',
    cluster: DEMO_SECOND_CLUSTER,
    cooperative: COOP_ZE ?? null,
    arrondissements: [
      ['A152', 8],
      ['A154', 7],
      ['A155', 12],
      ['A156', 10],
      ['A160', 13],
      ['A162', 14],
    ],
    lat: [6.68, 6.75],
    lon: [2.25, 2.38],
  },
  {
    name: 'Tori-Bossito',
    code: 'C022',
    cluster: DEMO_SECOND_CLUSTER,
    cooperative: UNION_TORI ?? null,
    arrondissements: [
      ['A146', 6],
      ['A148', 9],
      ['A149', 15],
      ['A150', 8],
      ['A151', 17],
    ],
    lat: [6.46, 6.56],
    lon: [2.1, 2.2],
  },
];

const LASTNAMES = [
  'Houénou',
  'Dossou',
  'Agossou',
  'Ahouansou',
  'Zinsou',
  'Hounkpatin',
  'Gbaguidi',
  'Adjovi',
  'Akakpo',
  'Sossou',
  'Tossou',
  'Houngbédji',
  'Kpadonou',
  'Dansou',
  'Gandonou',
  'Hounsou',
  'Sènou',
  'Djossou',
  'Amoussou',
  'Ahoyo',
  'Fagbohoun',
  'Adéoti',
  'Akanni',
  'Olatoundji',
  'Fassinou',
  'Aïkpé',
  'Glèlè',
  'Agbodjan',
  'Zannou',
  'Lokossou',
  'Ahouandjinou',
  'Tchibozo',
  'Vodounon',
  'Missihoun',
  'Adjaho',
  'Kiki',
  'Avocè',
  'Azonhiho',
  'Oké',
  'Salami',
];
const MEN = [
  'Comlan',
  'Kossi',
  'Codjo',
  'Sènan',
  'Sèdjro',
  'Mahougnon',
  'Gbènou',
  'Dossa',
  'Houngbo',
  'Sègbédji',
  'Rafiou',
  'Latifou',
  'Moudachirou',
  'Adébayo',
  'Pascal',
  'Jean-Baptiste',
  'Mathias',
  'Honoré',
  'Fiacre',
  'Romuald',
];
const WOMEN = [
  'Afiavi',
  'Ablawa',
  'Akouavi',
  'Sènami',
  'Houéfa',
  'Mahouna',
  'Ayaba',
  'Dossi',
  'Tognidé',
  'Rachidatou',
  'Safiatou',
  'Adébola',
  'Justine',
  'Hortense',
  'Victorine',
  'Bernadette',
];
const PLOT_NAMES = ['Champ de', 'Parcelle de', 'Bas-fond de', 'Plantation de', 'Jardin de'];
const PREFIXES = ['97', '96', '66', '61', '95', '94', '90', '51', '67', '98'];
const BANKS = ['Ecobank Bénin', 'Orabank Bénin'];
export const DEMO_GROWER_COUNT = 60;

/** The grower who is the demo account `producteur@` (the first one, in Allada). */
export const DEMO_GROWER_ACCOUNT = {
  firstname: 'Basile',
  lastname: 'Ahouandjinou',
  nip: '1098765432',
  email: DEMO_GROWER_EMAIL,
} as const;

/** A small seeded generator (mulberry32): the demo is the same on every load. */
function generator(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    between: (min: number, max: number) => min + (max - min) * next(),
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The demo growers' payloads (create-grower bodies) and their clusters' labels. */
export function demoGrowerPayloads(
  cooperativeIds: Map<string, string>,
): { cluster: string; body: Record<string, unknown> }[] {
  const rnd = generator(2026_11_25);
  const payloads: { cluster: string; body: Record<string, unknown> }[] = [];
  for (let i = 0; i < DEMO_GROWER_COUNT; i++) {
    const commune = DEMO_COMMUNES[i % DEMO_COMMUNES.length]!;
    const [arrondissement, villages] = rnd.pick(commune.arrondissements);
    const village = `${arrondissement}-${String(rnd.int(1, villages)).padStart(3, '0')}`;
    // The account's grower takes its names; the draws are made all the same, so that every
    // other grower stays who it is.
    const account = i === 0 ? DEMO_GROWER_ACCOUNT : null;
    const drawnWoman = rnd.next() < 0.4;
    const drawnLastname = rnd.pick(LASTNAMES);
    const drawnFirstname = rnd.pick(drawnWoman ? WOMEN : MEN);
    const woman = drawnWoman && !account;
    const lastname = account?.lastname ?? drawnLastname;
    const firstname = account?.firstname ?? drawnFirstname;
    const phone = `${PREFIXES[i % PREFIXES.length]}47${String(1000 + i * 7).padStart(4, '0')}`;
    // About one grower in four (of each commune) has no cooperative.
    const withCooperative = commune.cooperative && Math.floor(i / DEMO_COMMUNES.length) % 4 !== 3;
    const cooperativeId = withCooperative
      ? (cooperativeIds.get(commune.cooperative!) ?? null)
      : null;
    const lat = rnd.between(...commune.lat);
    const lon = rnd.between(...commune.lon);
    const products = Array.from({ length: rnd.int(1, 3) }, (_, p) => {
      const planting = new Date(Date.UTC(2025, rnd.int(3, 11), rnd.int(1, 28)));
      const tif = new Date(planting.getTime() + rnd.int(240, 300) * 86_400_000);
      const area = round(rnd.between(0.5, 5), 2);
      return {
        productType: rnd.next() < 0.65 ? 'CAYENNE_LISSE' : 'PAIN_DE_SUCRE',
        department: ATLANTIQUE,
        borough: commune.code,
        district: arrondissement,
        village,
        location: `${rnd.pick(PLOT_NAMES)} ${lastname}${p ? ` ${p + 1}` : ''}`,
        address: `${commune.name}, à ${rnd.int(1, 4)} km du village`,
        latitude: round(
          Math.min(commune.lat[1], Math.max(commune.lat[0], lat + rnd.between(-0.01, 0.01))),
          7,
        ),
        longitude: round(
          Math.min(commune.lon[1], Math.max(commune.lon[0], lon + rnd.between(-0.01, 0.01))),
          7,
        ),
        plantingDate: isoDay(planting),
        tifDate: isoDay(tif),
        areaSown: area,
        // 40 to 60 t per hectare.
        estimatedProduction: round(area * rnd.between(40, 60), 1),
      };
    });
    const bank = i % 3 === 0;
    payloads.push({
      cluster: commune.cluster,
      body: {
        farmerOrganizationId: cooperativeId,
        user: {
          lastname,
          firstname,
          nip: account?.nip ?? String(1_000_000 + i * 131),
          phone,
          email: account?.email ?? null,
          contactFullname: `${rnd.pick(woman ? MEN : WOMEN)} ${lastname}`,
          contactPhone: `${PREFIXES[(i + 3) % PREFIXES.length]}48${String(1000 + i * 7).padStart(4, '0')}`,
          department: ATLANTIQUE,
          borough: commune.code,
          district: arrondissement,
          village,
        },
        grower: {
          address: `${commune.name}, quartier ${rnd.int(1, 6)}`,
          subCooperative: cooperativeId ? `SC${rnd.int(1, 3)}` : null,
        },
        products,
        accountInfo: bank
          ? { providerName: rnd.pick(BANKS), accountNumber: `BJ06${String(10_000_000 + i * 977)}` }
          : { providerName: null, accountNumber: null },
        momoInfo: { momoNumber: phone },
      },
    });
  }
  return payloads;
}

async function loadGrowersDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = narrowDb<IdentityTables>()(ctx.db);
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const clusters = await db.selectFrom('clusters').select(['id', 'label']).execute();
  const first = clusters.find((c) => c.label === DEMO_CLUSTER);
  if (!first) throw new Error('demo growers: no demo cluster');
  const clusterOf = (label: string) => (clusters.find((c) => c.label === label) ?? first).id;
  const cooperatives = await db
    .selectFrom('organizations')
    .select(['id', 'denomination'])
    .where('organization_type', '=', 'COOPERATIVE')
    .where(
      'denomination',
      'in',
      DEMO_COOPERATIVES.map((c) => c.label),
    )
    .execute();
  const cooperativeIds = new Map(cooperatives.map((c) => [c.denomination, c.id]));
  if (cooperativeIds.size < DEMO_COOPERATIVES.length) {
    ctx.logger.warn(
      { found: cooperativeIds.size },
      'demo growers: cooperatives missing (their step has not run): those growers have none',
    );
  }
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: superAdmin.id, role: ROLE.SUPER_ADMIN })}`,
  };
  let plots = 0;
  for (const { cluster, body } of demoGrowerPayloads(cooperativeIds)) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/grower/cluster/${clusterOf(cluster)}`,
      headers,
      payload: body,
    });
    if (res.statusCode !== 201) {
      throw new Error(`demo growers: POST grower answered ${res.statusCode} ${res.body}`);
    }
    plots += (body.products as unknown[]).length;
  }
  await giveDemoPassword(ctx.db, DEMO_GROWER_EMAIL);
  ctx.logger.info({ growers: DEMO_GROWER_COUNT, plots }, 'demo growers registered');
}
