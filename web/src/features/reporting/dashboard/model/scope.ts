import { ROLES } from '../../../../shared/auth/roles.js';

/**
 * Which dashboard a role gets (the API's reach, services/api/src/reporting/dashboard/schemas.ts):
 * - 'contracts': `contracts/stats`, the aggregator its own contracts, the cluster manager its
 *   cluster, the super admin and admin everything (with the cluster picker);
 * - 'personal': `dashboard/me`, the grower, the cooperative and the SFD, what concerns them;
 * - 'none': the roles with no figure of their own (input provider, carrier, secretary…): the
 *   date and where their operations are.
 */
export type DashboardKind = 'contracts' | 'personal' | 'none';

export function dashboardKind(role: string | undefined): DashboardKind {
  switch (role) {
    case ROLES.SUPER_ADMIN:
    case ROLES.ADMIN:
    case ROLES.CLUSTER_MANAGER:
    case ROLES.INDUSTRIAL:
      return 'contracts';
    case ROLES.GROWER:
    case ROLES.FARMER_ORGANIZATION:
    case ROLES.SFD:
      return 'personal';
    default:
      return 'none';
  }
}

/** The cluster picker ('Tout' and every cluster) is the admins'. */
export function picksCluster(role: string | undefined): boolean {
  return role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN;
}
