import type { Kysely } from 'kysely';
import type { CommandPipeline } from '@filiere/event-store';
import type { Config, Logger } from '@filiere/platform';
import { registerWalletStreams } from './catalogue.js';
import { acceptedBank, type WalletDeps } from './commands/context.js';
import { WalletJobRunner, type RunnerOptions } from './jobs/job-runner.js';
import { createPaymentProvider } from './providers/create-provider.js';
import { PgSandboxStore } from './sandbox/pg-sandbox-store.js';

export interface WalletWriteSide {
  deps: WalletDeps;
  runner: WalletJobRunner;
  sandboxStore: PgSandboxStore;
}

/**
 * Everything the wallet's commands need, around one command pipeline: the wallet stream
 * types, the configured payment provider (sandbox backed by its table), the accepted bank,
 * and the job runner commands hand their background work to. Used by the API, the worker
 * and the demo data.
 */
export function createWalletWriteSide(options: {
  db: Kysely<any>;
  config: Config;
  logger: Logger;
  pipeline: CommandPipeline;
  runner?: RunnerOptions;
}): WalletWriteSide {
  registerWalletStreams(options.pipeline);
  const sandboxStore = new PgSandboxStore(options.db);
  const holder: { deps?: WalletDeps } = {};
  const runner = new WalletJobRunner(
    () => holder.deps!,
    options.db,
    options.logger,
    options.runner,
  );
  const deps: WalletDeps = {
    db: options.db,
    pipeline: options.pipeline,
    provider: createPaymentProvider(options.config, { sandboxStore }),
    bank: acceptedBank(options.config.SUPPLY_BANK_NAME, options.config.SUPPLY_BANK_ACCOUNT),
    limits: {
      maxCommandAmount: options.config.MAX_COMMAND_AMOUNT,
      maxBalance: options.config.MAX_BALANCE,
    },
    jobs: runner,
    logger: options.logger,
  };
  holder.deps = deps;
  return { deps, runner, sandboxStore };
}
