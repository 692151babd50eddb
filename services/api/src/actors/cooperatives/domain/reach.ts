import { ROLE, type RoleCode } from '../../../kernel/roles.js';

/**
 * Who reaches which actor rows (the actors contract, spec §6): the cooperatives and carriers
 * screens are for the super admin, the admin, the cluster manager and the aggregator
 * (industrial). The super admin and the admin reach every row; the cluster manager and the
 * aggregator reach the rows of their own cluster (`cluster_id` of the actor's row is the
 * truth), and nothing while they have none. Pure rules: the routes turn a refusal into 403.
 */
export const ACTOR_STAFF: readonly RoleCode[] = [
  ROLE.SUPER_ADMIN,
  ROLE.ADMIN,
  ROLE.CLUSTER_MANAGER,
  ROLE.INDUSTRIAL,
];

/**
 * Who registers, edits and deactivates them: the staff without the aggregator, which reads
 * its cluster's carriers and cooperatives (for its contracts) but registers no member —
 * identity's rules let an aggregator create only its own organisation's staff.
 */
export const ACTOR_WRITERS: readonly RoleCode[] = [
  ROLE.SUPER_ADMIN,
  ROLE.ADMIN,
  ROLE.CLUSTER_MANAGER,
];

export interface Viewer {
  id: string;
  role: RoleCode;
  clusterId: string | null;
  organizationId: string | null;
}

export const REACH_MESSAGES = {
  forbidden: 'Vous n’avez pas accès à cette ressource',
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez gérer les acteurs',
  outOfReach: 'Cet acteur n’est pas dans votre périmètre',
  superAdminOnly: 'Seul le super administrateur peut faire cette opération',
} as const;

/** Every row, the rows of one cluster, or a refusal with its French message. */
export type Scope =
  | { kind: 'all' }
  | { kind: 'cluster'; clusterId: string }
  | { kind: 'refused'; message: string; reason: 'FORBIDDEN' | 'NO_CLUSTER' };

/** The rows `viewer` lists. */
export function staffScope(viewer: Viewer): Scope {
  if (viewer.role === ROLE.SUPER_ADMIN || viewer.role === ROLE.ADMIN) return { kind: 'all' };
  if (!ACTOR_STAFF.includes(viewer.role)) {
    return { kind: 'refused', message: REACH_MESSAGES.forbidden, reason: 'FORBIDDEN' };
  }
  if (!viewer.clusterId) {
    return { kind: 'refused', message: REACH_MESSAGES.noCluster, reason: 'NO_CLUSTER' };
  }
  return { kind: 'cluster', clusterId: viewer.clusterId };
}

/** May `viewer` see or change a row of `clusterId` (or create one there)? */
export function reaches(viewer: Viewer, clusterId: string | null): boolean {
  const scope = staffScope(viewer);
  if (scope.kind === 'all') return true;
  return scope.kind === 'cluster' && scope.clusterId === clusterId;
}

/** May `viewer` register, edit or deactivate a row of `clusterId`? */
export function mayWrite(viewer: Viewer, clusterId: string | null): boolean {
  return ACTOR_WRITERS.includes(viewer.role) && reaches(viewer, clusterId);
}

/** Only the super admin lists deactivated cooperatives and reactivates them (contract). */
export const mayManageInactiveCooperatives = (viewer: Viewer) => viewer.role === ROLE.SUPER_ADMIN;

/**
 * `organization/{id}/…` (a cooperative's own views): staff who reach the cooperative's
 * cluster, or the cooperative's representative itself (ROLE_FARMER_ORGANIZATION of that
 * organisation).
 */
export function mayReadOrganization(
  viewer: Viewer,
  organization: { id: string; clusterId: string | null },
): boolean {
  if (viewer.role === ROLE.FARMER_ORGANIZATION) return viewer.organizationId === organization.id;
  return reaches(viewer, organization.clusterId);
}
