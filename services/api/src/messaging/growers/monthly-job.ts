import { InProcessLoop } from '@filiere/platform';
import type { JobModule } from '../../kernel/module.js';
import { MONTHLY_SUMMARY, MonthlySummaries } from './monthly.js';

/**
 * The growers' monthly summary on platform's in-process loop (the API's background thread
 * without REDIS_URL, the worker with it), checked every hour: the first check of a month
 * writes the month before's summaries, later ones find it done.
 */
export const monthlySummaryJob: JobModule = {
  name: MONTHLY_SUMMARY,
  withoutRedis: true,
  async start(ctx) {
    const loop = new InProcessLoop(MonthlySummaries.of(ctx.db, ctx.logger), ctx.logger, {
      name: 'monthly summaries',
      pollMs: 3_600_000,
    });
    loop.start();
    return { close: () => loop.stop(), wake: () => loop.wake() };
  },
};
