import type { ContextModule } from '../kernel/module.js';
import { identityDemoStep } from './demo/identity.js';
import { identityMigrations } from './migrations/index.js';
import { USER_PUSH } from './notify.js';

/**
 * Identity and access: users, organisations, clusters, sign-in, invitations. Its tables are
 * plain rows (no events yet); its routes are under /api (http/).
 */
export const identityModule: ContextModule = {
  name: 'identity',
  events: [],
  migrations: identityMigrations,
  projectors: [],
  demo: [identityDemoStep],
  pushes: Object.values(USER_PUSH),
  http: async () => (await import('./http/index.js')).registerIdentity,
};

// The public face: what other contexts and the scripts may use.
export { hashPassword } from './password.js';
export { ROLES, ORGANIZATION_TYPES } from './roles.js';
export { demoAccounts, DEMO_PASSWORD } from './demo/accounts.js';
export {
  DEMO_CLUSTER,
  DEMO_PENDING_AGGREGATOR,
  DEMO_SECOND_AGGREGATOR,
  findDemoUser,
  type DemoUserRef,
} from './demo/identity.js';
