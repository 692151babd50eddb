import type { Kysely } from 'kysely';
import type { Logger } from '@filiere/platform';
import { buildApp, product, runDemoSteps, type Database, type DemoStep } from '@filiere/api';

/**
 * Runs the modules' demo steps (each context's `demo/`, in the order of the module list)
 * that have not run on this database yet; a step that goes through the real commands gets
 * an app on the same database. Returns the names of the steps run.
 */
export function loadDemoData(
  ctx: { db: Kysely<Database>; logger: Logger },
  steps: readonly DemoStep[] = product.demo,
): Promise<string[]> {
  return runDemoSteps(
    { ...ctx, openApp: (config) => buildApp({ config, db: ctx.db, logger: ctx.logger }) },
    steps,
  );
}
