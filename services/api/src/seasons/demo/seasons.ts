import type { FastifyInstance } from 'fastify';
import { parseConfig } from '@filiere/platform';
import { DEMO_SECOND_AGGREGATOR, findDemoUser } from '../../identity/index.js';
import type { DemoContext, DemoStep } from '../../kernel/module.js';
import { ROLE, type RoleCode } from '../../kernel/roles.js';
import { beninToday } from '../domain/index.js';

export const DEMO_SEASON_LABEL = 'Saison 2026–2027';

/**
 * The season's fertilizer lines, from the actors' catalogue (fixed ids: NPK 15-15-15, urea,
 * potassium sulphate), at plausible Beninese prices (F CFA per kg) and doses (kg per ha).
 */
export const DEMO_SEASON_FERTILIZERS = [
  { fertilizerId: 1, typeId: 1, amount: 350, index: 400 },
  { fertilizerId: 2, typeId: 1, amount: 300, index: 250 },
  { fertilizerId: 3, typeId: 1, amount: 450, index: 150 },
];

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The seasons' demo data, through the real routes: an active season 2026–2027 (125 F CFA
 * per kg, 50 t/ha, quotity 10 %, three fertilizer lines), the demo aggregator attached for
 * 100 t and CONFIRMED (it accepted), the second aggregator invited for 60 t (PENDING: its
 * bell rings).
 */
export const seasonsDemoStep: DemoStep = {
  name: 'seasons',
  async run(ctx: DemoContext) {
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadSeasonsDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadSeasonsDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const superAdmin = await findDemoUser(ctx.db, 'superadmin@demo.filiere.bj');
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  const second = await findDemoUser(ctx.db, DEMO_SECOND_AGGREGATOR);

  const call = async <T>(
    who: { id: string },
    role: RoleCode,
    method: 'POST' | 'PATCH',
    url: string,
    payload: Record<string, unknown>,
  ): Promise<T> => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${app.jwt.sign({ sub: who.id, role })}` },
      payload,
    });
    if (res.statusCode >= 300) {
      throw new Error(`demo seasons: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    }
    return res.json() as T;
  };

  // The season opened about five months ago (Benin time) and runs for a year.
  const at = (daysAgo: number, hour = 10) => ctx.clock.set(ctx.clock.beninMoment(daysAgo, hour));
  await at(160);
  const from = beninToday(ctx.clock.now());
  const to = addDays(from, 364);
  const season = await call<{ seasonId: number }>(
    superAdmin,
    ROLE.SUPER_ADMIN,
    'POST',
    '/api/clusters',
    {
      label: DEMO_SEASON_LABEL,
      from,
      to,
      unitProductAmount: 125,
      productionIndex: 50,
      quotity: 10,
      fertilizers: DEMO_SEASON_FERTILIZERS,
    },
  );
  const id = season.seasonId;
  await call(superAdmin, ROLE.SUPER_ADMIN, 'POST', `/api/clusters/activate-cluster/${id}`, {});
  await at(158);
  await call(superAdmin, ROLE.SUPER_ADMIN, 'POST', `/api/clusters/${id}/industrial`, {
    industrialId: aggregator.id,
    quantity: 100_000,
  });
  await at(156, 16);
  await call(aggregator, ROLE.INDUSTRIAL, 'POST', `/api/seasons/${id}/accept`, {});
  // The second aggregator was invited two days ago: its invitation is still open (a season's
  // stream only; the next steps go back to the season's start on other streams).
  await at(2);
  await call(superAdmin, ROLE.SUPER_ADMIN, 'POST', `/api/clusters/${id}/industrial`, {
    industrialId: second.id,
    quantity: 60_000,
  });
  ctx.logger.info({ seasonId: id }, 'demo season 2026–2027 with its two aggregators');
}
