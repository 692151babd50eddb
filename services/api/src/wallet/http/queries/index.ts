import type { FastifyInstance } from 'fastify';
import { registerWalletExport } from './export.routes.js';
import { registerSuppliesExport } from './supplies-export.routes.js';
import { financingRoutes } from './financing.routes.js';
import { reportingRoutes } from './reporting.routes.js';
import { supplyRoutes } from './supplies.routes.js';
import { transactionRoutes } from './transactions.routes.js';
import { walletRoutes } from './wallet.routes.js';

/**
 * The wallet's read routes under /api. Every one reads projected tables (never folds
 * events), authenticates, and authorizes by role and ownership: a user reads its own
 * wallet, transactions, supplies and financings; admins and super admins read anyone's.
 */
export async function registerWalletQueries(app: FastifyInstance): Promise<void> {
  await app.register(
    async (scope) => {
      walletRoutes(scope);
      reportingRoutes(scope);
      transactionRoutes(scope);
      supplyRoutes(scope);
      financingRoutes(scope);
      registerWalletExport(scope);
      registerSuppliesExport(scope);
    },
    { prefix: '/api' },
  );
}
