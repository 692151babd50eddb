import type { Kysely } from 'kysely';
import type { CommandPipeline } from '@filiere/event-store';
import { narrowDb, type Config, type Logger } from '@filiere/platform';
import { userDirectory } from '../identity/index.js';
import { registerWalletStreams } from './catalogue.js';
import { acceptedBank, type WalletDeps } from './commands/context.js';
import { WalletJobRunner, type RunnerOptions } from './jobs/job-runner.js';
import { createPaymentProvider } from './providers/create-provider.js';
import { PgSandboxStore } from './sandbox/pg-sandbox-store.js';
import type { WalletDb } from './tables.js';

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
export function createWalletWriteSide<DB extends WalletDb>(options: {
  db: Kysely<DB>;
  config: Config;
  logger: Logger;
  pipeline: CommandPipeline;
  runner?: RunnerOptions;
}): WalletWriteSide {
  registerWalletStreams(options.pipeline);
  const db = narrowDb<WalletDb>()(options.db);
  const sandboxStore = new PgSandboxStore(db);
  const holder: { deps?: WalletDeps } = {};
  const runner = new WalletJobRunner(() => holder.deps!, db, options.logger, {
    supplyAbandonMs: options.config.SUPPLY_ABANDON_MINUTES * 60_000,
    ...options.runner,
  });
  const deps: WalletDeps = {
    db,
    pipeline: options.pipeline,
    provider: createPaymentProvider(options.config, { sandboxStore }),
    bank: acceptedBank(options.config.SUPPLY_BANK_NAME, options.config.SUPPLY_BANK_ACCOUNT),
    limits: {
      maxCommandAmount: options.config.MAX_COMMAND_AMOUNT,
      maxBalance: options.config.MAX_BALANCE,
    },
    jobs: runner,
    logger: options.logger,
    users: userDirectory(db),
  };
  holder.deps = deps;
  return { deps, runner, sandboxStore };
}
