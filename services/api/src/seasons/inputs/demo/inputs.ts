import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { parseConfig } from '@filiere/platform';
import { findDemoUser } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { DEMO_SEASON_LABEL } from '../../demo/seasons.js';
import { seasonsDb } from '../../tables.js';

/** The demo aggregator's providers: (supplier account, fertilizer id, kg). */
export const DEMO_ASSIGNMENTS = [
  // Intrants du Sud SARL (the demo supplier account): NPK 15-15-15, 400 of the line's 800 kg.
  { email: 'fournisseur@demo.filiere.bj', fertilizerId: 1, quantity: 400 },
  // Agri Plast: urea, 300 of the line's 500 kg.
  { email: 'agri.plast@demo.filiere.bj', fertilizerId: 2, quantity: 300 },
] as const;

/**
 * The demo aggregator's CONFIRMED link to 'Saison 2026–2027' gets two input providers,
 * through the real route (each holds its amount on the aggregator's wallet).
 */
export const inputsDemoStep: DemoStep = {
  name: 'season-inputs',
  async run(ctx: DemoContext) {
    // The input providers were assigned at the start of the season.
    await ctx.clock.set(ctx.clock.beninMoment(150, 10));
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadInputsDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadInputsDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = seasonsDb(ctx.db);
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  // The read model is not projected while the demo loads: the link comes from the log.
  const accepted = await db
    .selectFrom('events')
    .select('data')
    .where('type', '=', 'IndustrialAccepted')
    .where(sql<boolean>`data->>'userId' = ${aggregator.id}`)
    .where(
      sql<boolean>`(data->>'seasonId')::integer in (select (data->>'seasonId')::integer from events where type = 'SeasonCreated' and data->>'label' = ${DEMO_SEASON_LABEL})`,
    )
    .orderBy('position', 'desc')
    .executeTakeFirstOrThrow();
  const link = { id: (accepted.data as { linkId: number }).linkId };
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: aggregator.id, role: ROLE.INDUSTRIAL })}`,
  };
  for (const assignment of DEMO_ASSIGNMENTS) {
    const provider = await findDemoUser(ctx.db, assignment.email);
    const res = await app.inject({
      method: 'POST',
      url: '/api/user-cluster-input-provider',
      headers,
      payload: {
        userClusterId: link.id,
        inputProviderId: provider.id,
        fertilizerId: assignment.fertilizerId,
        quantity: assignment.quantity,
      },
    });
    if (res.statusCode !== 201) {
      throw new Error(`demo inputs: assignment answered ${res.statusCode} ${res.body}`);
    }
  }
  ctx.logger.info({ linkId: link.id }, 'demo season: two input providers assigned');
}
