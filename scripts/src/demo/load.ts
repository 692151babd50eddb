import type { Kysely } from 'kysely';
import type { Logger } from '@filiere/platform';
import { catalogueDecoder, catchUpGroup, ensureCheckpoints } from '@filiere/projections';
import { buildApp, product, runDemoSteps, type Database, type DemoStep } from '@filiere/api';

/**
 * Runs the modules' demo steps (each context's `demo/`, in the order of the module list)
 * that have not run on this database yet; a step that goes through the real commands gets
 * an app on the same database. Returns the names of the steps run.
 *
 * Then the product's projectors read what the steps appended, here, before the server starts:
 * nothing projects while the demo loads, and the server's own projectors begin only once its
 * background thread has loaded the product (seconds on a small machine), so the lists stayed
 * empty for that long after `npm start` said it was ready.
 */
export async function loadDemoData(
  ctx: { db: Kysely<Database>; logger: Logger },
  steps: readonly DemoStep[] = product.demo,
): Promise<string[]> {
  const ran = await runDemoSteps(
    {
      ...ctx,
      openApp: (config, clock) => buildApp({ config, db: ctx.db, logger: ctx.logger, clock }),
    },
    steps,
  );
  if (ran.length) {
    const projectors = product.projectors;
    await ensureCheckpoints(
      ctx.db,
      projectors.map((p) => p.name),
    );
    await catchUpGroup(ctx.db, projectors, { decode: catalogueDecoder(product.catalogue) });
  }
  return ran;
}
