import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { parseConfig } from '@filiere/platform';
import { findDemoUser } from '../../../identity/index.js';
import type { DemoContext, DemoStep } from '../../../kernel/module.js';
import { ROLE } from '../../../kernel/roles.js';
import { seasonsDb } from '../../tables.js';

/** How many of the demo aggregator's accepted INPUT requests are delivered by code. */
export const DEMO_DELIVERIES = 2;

/**
 * Some accepted INPUT requests of the demo aggregator are delivered by code, by the provider
 * of their line (Intrants du Sud for NPK), through the real routes: find-by-code, then
 * make-delivery. Requests whose line has no provider stay waiting. The requests come from
 * the requests' demo step (read from the log: read models are not projected while the demo
 * loads).
 */
export const deliveriesDemoStep: DemoStep = {
  name: 'season-deliveries',
  async run(ctx: DemoContext) {
    const app = await ctx.openApp(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      await loadDeliveriesDemo(app, ctx);
    } finally {
      await app.close();
    }
  },
};

async function loadDeliveriesDemo(app: FastifyInstance, ctx: DemoContext): Promise<void> {
  const db = seasonsDb(ctx.db);
  const aggregator = await findDemoUser(ctx.db, 'agregateur@demo.filiere.bj');
  const accepted = await db
    .selectFrom('events as a')
    .innerJoin('events as f', (join) =>
      join.onRef('f.stream_id', '=', 'a.stream_id').on('f.type', '=', 'GrowerRequestFiled'),
    )
    .select(['a.data as accepted', 'f.data as filed'])
    .where('a.type', '=', 'GrowerRequestAccepted')
    .where(sql<boolean>`a.data->>'code' is not null`)
    .where(sql<boolean>`f.data->>'industrialUserId' = ${aggregator.id}`)
    .orderBy('a.position')
    .execute();
  const headers = {
    authorization: `Bearer ${app.jwt.sign({ sub: aggregator.id, role: ROLE.INDUSTRIAL })}`,
  };
  let delivered = 0;
  for (const row of accepted) {
    if (delivered >= DEMO_DELIVERIES) break;
    const { code, requestId } = row.accepted as { code: string; requestId: number };
    // The inputs are handed over three days apart, about four months ago.
    await ctx.clock.set(ctx.clock.beninMoment(122 - 3 * delivered, 9));
    const found = await app.inject({
      method: 'GET',
      url: `/api/input-provider/find-by-code/${code}`,
      headers,
    });
    // The read model may not know the code yet while the demo loads: deliver by id.
    if (found.statusCode !== 200 && found.statusCode !== 404) continue;
    const res = await app.inject({
      method: 'POST',
      url: `/api/input-provider/make-delivery/${requestId}`,
      headers,
      payload: { code },
    });
    if (res.statusCode === 200) delivered++;
  }
  ctx.logger.info({ delivered }, 'demo season: input requests delivered by code');
}
