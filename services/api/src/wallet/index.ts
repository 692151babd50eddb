import { registerWalletQueries } from './queries/index.js';
import type { FastifyInstance } from 'fastify';
import type { MigrationSet } from '@filiere/platform';

/** The wallet ledger's commands and queries (issue 5 fills this in). */
export const walletMigrations: MigrationSet = {};

export async function registerWallet(app: FastifyInstance): Promise<void> {
  await registerWalletQueries(app);
}
