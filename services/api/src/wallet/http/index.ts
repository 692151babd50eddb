import type { FastifyInstance } from 'fastify';
import type { WalletDeps } from '../commands/context.js';
import { WalletJobQueue } from '../jobs/bullmq.js';
import { InProcessJobLoop } from '../jobs/in-process.js';
import type { WalletJobRunner } from '../jobs/job-runner.js';
import { WALLET_JOBS } from '../jobs/job-store.js';
import { createWalletWriteSide } from '../write-side.js';
import { registerSupplyCommandRoutes } from './commands/supply.routes.js';
import { registerWalletCommandRoutes } from './commands/wallet.routes.js';
import { registerWalletQueries } from './queries/index.js';
import { registerSandboxWidget } from './widget.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The wallet's write side: command dependencies, job runner, in-process job loop. */
    wallet: {
      deps: WalletDeps;
      runner: WalletJobRunner;
      /** Present without REDIS_URL; started when the app is ready (not under NODE_ENV=test). */
      loop?: InProcessJobLoop;
    };
  }
}

/**
 * The wallet: command routes (transfer, withdrawal, financing, supplies, sandbox widget),
 * background jobs (payouts, supply checks: in-process, or BullMQ wake-ups for the worker
 * with REDIS_URL), and the read routes of `queries/`.
 */
export async function registerWallet(app: FastifyInstance): Promise<void> {
  const { config, db, logger } = app.deps;
  const side = createWalletWriteSide({ db, config, logger, pipeline: app.commands });
  let loop: InProcessJobLoop | undefined;
  const thread = app.deps.backgroundThread;
  if (config.REDIS_URL) {
    const queue = new WalletJobQueue(config.REDIS_URL, logger);
    side.runner.onScheduled = (runAt) => queue.wake(runAt);
    app.addHook('onClose', () => queue.close());
  } else if (thread) {
    // The background thread runs the jobs (payouts, supply checks) with its own pipeline.
    side.runner.onScheduled = (runAt) => {
      if (runAt.getTime() <= Date.now()) thread.wakeJob(WALLET_JOBS);
    };
  } else {
    loop = new InProcessJobLoop(side.runner, logger);
    if (config.NODE_ENV !== 'test') app.addHook('onReady', async () => loop!.start());
    app.addHook('onClose', () => loop!.stop());
  }
  app.decorate('wallet', { deps: side.deps, runner: side.runner, ...(loop ? { loop } : {}) });

  registerWalletCommandRoutes(app, side.deps);
  registerSupplyCommandRoutes(app, side.deps);
  // Its public widget credits a supply without payment: never served in production (where
  // parseConfig already refuses the sandbox; this holds for a configuration built by hand).
  if (side.deps.provider.name === 'sandbox' && config.NODE_ENV !== 'production') {
    await registerSandboxWidget(app, side.deps, side.sandboxStore);
  }
  await registerWalletQueries(app);
}
