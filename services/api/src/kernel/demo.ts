import { sql } from 'kysely';
import type { DemoContext, DemoStep } from './module.js';

/**
 * Runs each demo step that has not run on this database yet, recording it in
 * platform_meta, so a second start loads nothing twice. Returns the names run.
 */
export async function runDemoSteps(
  ctx: DemoContext,
  steps: readonly DemoStep[],
): Promise<string[]> {
  const ran: string[] = [];
  for (const step of steps) {
    const key = `demo:${step.name}`;
    const done = await ctx.db
      .selectFrom('platform_meta')
      .select('key')
      .where('key', '=', key)
      .executeTakeFirst();
    if (done) continue;
    await step.run(ctx);
    await ctx.db
      .insertInto('platform_meta')
      .values({
        key,
        value: JSON.stringify({ loadedAt: new Date().toISOString() }),
        updated_at: sql`now()`,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    ran.push(step.name);
  }
  return ran;
}
