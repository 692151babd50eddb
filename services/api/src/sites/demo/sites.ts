import type { FastifyInstance } from 'fastify';
import { parseConfig } from '@filiere/platform';
import { findDemoUser } from '../../identity/index.js';
import type { DemoContext, DemoStep } from '../../kernel/module.js';
import { ROLE } from '../../kernel/roles.js';

export const DEMO_AGGREGATOR_EMAIL = 'agregateur@demo.filiere.bj';

/** The demo aggregator's two stores, near Allada and in Cotonou. */
export const DEMO_SITES = [
  {
    label: 'Magasin central d’Allada',
    address: 'Carrefour Agbanou, route de Cotonou, Allada',
    latitude: 6.6651234,
    longitude: 2.1512345,
  },
  {
    label: 'Entrepôt de Cotonou',
    address: 'Zone industrielle de Cotonou, Akpakpa',
    latitude: 6.3701567,
    longitude: 2.4601234,
  },
] as const;

/** Its coverage zone: the pineapple belt of Allada and Zè. */
export const DEMO_ZONE = {
  name: 'Bassin ananas Allada – Zè',
  coordinates: [
    { latitude: 6.72, longitude: 2.08 },
    { latitude: 6.74, longitude: 2.26 },
    { latitude: 6.58, longitude: 2.28 },
    { latitude: 6.56, longitude: 2.1 },
  ],
};

/** Two stores and a coverage zone for the demo aggregator, through the real routes. */
export const sitesDemoStep: DemoStep = {
  name: 'sites',
  async run(ctx: DemoContext) {
    // The sites are today’s additions.
    await ctx.clock.set(ctx.clock.beninMoment(0, 13));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadSitesDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadSitesDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const aggregator = await findDemoUser(ctx.db, DEMO_AGGREGATOR_EMAIL);
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: aggregator.id, role: ROLE.INDUSTRIAL })}`,
  };
  const send = async (url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, headers, payload });
    if (res.statusCode !== 201)
      throw new Error(`demo sites: ${url} answered ${res.statusCode} ${res.body}`);
  };
  for (const site of DEMO_SITES) await send(`/api/users/add-site/${aggregator.id}`, site);
  await send('/api/coverage-zones', DEMO_ZONE);
  ctx.logger.info({ sites: DEMO_SITES.length, zones: 1 }, 'demo sites added');
}
