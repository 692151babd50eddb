import { sql, type Kysely } from 'kysely';
import type { Logger } from '@filiere/platform';
import { identityDemoStep } from './identity.js';
import { walletDemoStep } from './wallet.js';

export interface DemoContext {
  db: Kysely<any>;
  logger: Logger;
}

/** A named, run-once piece of demo data. Later parts of the product append steps. */
export interface DemoStep {
  name: string;
  run(ctx: DemoContext): Promise<void>;
}

/** The demo steps, in order. */
export const demoSteps: DemoStep[] = [identityDemoStep, walletDemoStep];

/**
 * Runs each demo step that has not run on this database yet, recording it in
 * platform_meta, so a second start loads nothing twice.
 */
export async function loadDemoData(
  ctx: DemoContext,
  steps: DemoStep[] = demoSteps,
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
