import { ROLES, type RoleCode } from './roles.js';
import type { User } from './user.js';

/**
 * The actions a screen offers as a button, and who the server lets take them: the same role
 * lists as the API's `requireRoles` (named in each entry). A button shows only when
 * `can(user, action)`; hiding is a courtesy, the server still refuses.
 */
export type Action =
  | 'wallet.transfer'
  | 'wallet.withdraw'
  | 'wallet.fund'
  | 'wallet.supply'
  | 'grower.manage'
  | 'grower.ban'
  | 'grower.resetPin';

/** Every role but the read-only auditor (ROLE_ACCOUNTING). */
const MONEY_COMMAND_ROLES = Object.values(ROLES).filter((r) => r !== ROLES.ACCOUNTING);

const RULES: Record<Action, readonly RoleCode[]> = {
  // services/api/src/wallet/http/commands/wallet.routes.ts, MONEY_COMMAND_ROLES.
  'wallet.transfer': MONEY_COMMAND_ROLES,
  'wallet.withdraw': MONEY_COMMAND_ROLES,
  // POST /api/financement: aggregators only.
  'wallet.fund': [ROLES.INDUSTRIAL],
  // services/api/src/wallet/http/commands/supply.routes.ts, SUPPLY_ROLES.
  'wallet.supply': [ROLES.SUPER_ADMIN, ROLES.ADMIN, ROLES.INDUSTRIAL],
  // services/api/src/actors/growers/domain/reach.ts, GROWER_ROUTE_ROLES.manage and .ban.
  'grower.manage': [ROLES.SUPER_ADMIN, ROLES.ADMIN, ROLES.CLUSTER_MANAGER],
  'grower.ban': [ROLES.SUPER_ADMIN],
  // services/api/src/identity/permissions.ts, ROUTE_ROLES.resetPin.
  'grower.resetPin': [ROLES.CLUSTER_MANAGER],
};

/** Whether `user` may take `action` (false while the user is not loaded). */
export function can(user: User | undefined | null, action: Action): boolean {
  const code = user?.role?.code;
  return Boolean(code) && (RULES[action] as readonly string[]).includes(code!);
}
