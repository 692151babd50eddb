import type { FastifyInstance } from 'fastify';
import type { MigrationSet } from '@filiere/platform';

/** The wallet ledger's commands and queries (issue 5 fills this in). */
export const walletMigrations: MigrationSet = {};

export async function registerWallet(_app: FastifyInstance): Promise<void> {}
