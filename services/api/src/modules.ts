import { actorsModule } from './actors/index.js';
import { contractsModule } from './contracts/index.js';
import { identityModule } from './identity/index.js';
import { assembleProduct, type ContextModule } from './kernel/index.js';
import { locationsModule } from './locations/index.js';
import { reconciliationModule } from './reconciliation/index.js';
import { messagingModule } from './messaging/index.js';
import { reportingModule } from './reporting/index.js';
import { seasonsModule } from './seasons/index.js';
import { sitesModule } from './sites/index.js';
import { requireEmptyWallet, walletModule } from './wallet/index.js';
// The route plugins call `app.authenticate`, `app.requireRoles`…, which http/auth.ts declares on
// Fastify's types: a program type-checking the contexts from this file (the web's tests) needs
// that declaration in view. Type-only, so loading this file still loads no Fastify.
import type {} from './http/auth.js';

/**
 * Every bounded context, in registration order. This list drives the API (routes, command
 * pipeline streams), the worker (projectors, jobs), the migrations, the event catalogue, the
 * ledger:* commands, the bank test's checker and the demo loader. Adding a context is its
 * folder under services/api/src/ plus one line here (docs/architecture.md).
 *
 * Loading this file loads no route and no Fastify: the worker imports it.
 */
export const modules: readonly ContextModule[] = [
  // Identity asks the wallet before deleting a user (identity/ports.ts).
  identityModule({ userDeletionCheck: requireEmptyWallet }),
  walletModule,
  locationsModule,
  actorsModule,
  seasonsModule,
  contractsModule,
  sitesModule,
  reportingModule,
  reconciliationModule,
  messagingModule,
];

/** What the modules add up to: catalogue, projectors, jobs, demo steps, migrations. */
export const product = assembleProduct(modules);

export { assembleProduct, buildCatalogue, HUB_MESSAGES, runDemoSteps } from './kernel/index.js';
export type * from './kernel/module.js';
export type { Product } from './kernel/modules.js';
/** The product's tables (the worker opens its pool with them). */
export type { Database } from './database.js';
