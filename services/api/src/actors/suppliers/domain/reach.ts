import { ROLE, type RoleCode } from '../../../kernel/roles.js';

/**
 * Who sees and changes which input suppliers (spec §6): the super admin and the admin all;
 * the cluster manager and the aggregator (who picks suppliers for its seasons) those of
 * their cluster — the cluster manager also registers, edits and deactivates them there; a
 * supplier itself reads its own record. Reactivating and listing the deactivated: the super
 * admin. Pure: the service applies it to the rows it reads.
 */
export interface Viewer {
  id: string;
  role: RoleCode;
  clusterId: string | null;
}

export const SUPPLIER_MESSAGES = {
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez gérer des fournisseurs',
  outOfReach: 'Ce fournisseur n’est pas dans votre périmètre',
  clusterOutOfReach: 'Ce cluster n’est pas dans votre périmètre',
  forbidden: 'Vous n’avez pas accès à cette ressource',
  superAdminOnly: 'Seul le super administrateur voit et réactive les fournisseurs désactivés',
  notFound: 'Fournisseur d’intrant introuvable',
  clusterNotFound: 'Cluster introuvable',
  fertilizerNotFound: 'Intrant introuvable',
  fertilizerTypeNotFound: 'Type d’intrant introuvable',
  alreadyInactive: 'Ce fournisseur est déjà désactivé',
  alreadyActive: 'Ce fournisseur est déjà actif',
  created: "Fournisseur d'intrant a été ajouté avec succès !",
  updated: 'Mise à jour effectuée avec succès',
  deactivated: (name: string) =>
    `Le fournisseur d’intrant ${name} est désactivé. Il pourra être réactivé`,
  reactivated: (name: string) => `Le fournisseur d’intrant ${name} est réactivé`,
} as const;

const ALL = [ROLE.SUPER_ADMIN, ROLE.ADMIN] as readonly RoleCode[];
const BY_CLUSTER = [ROLE.CLUSTER_MANAGER, ROLE.INDUSTRIAL] as readonly RoleCode[];

/** Which suppliers a list shows `viewer`: all, one cluster's, or a refusal. */
export type Scope =
  | { kind: 'all' }
  | { kind: 'cluster'; clusterId: string }
  | { kind: 'refused'; message: string; reason?: 'NO_CLUSTER' };

export function listScope(viewer: Viewer): Scope {
  if (ALL.includes(viewer.role)) return { kind: 'all' };
  if (BY_CLUSTER.includes(viewer.role)) {
    return viewer.clusterId
      ? { kind: 'cluster', clusterId: viewer.clusterId }
      : { kind: 'refused', message: SUPPLIER_MESSAGES.noCluster, reason: 'NO_CLUSTER' };
  }
  return { kind: 'refused', message: SUPPLIER_MESSAGES.forbidden };
}

/** May `viewer` read a supplier of `clusterId` (represented by `userId`)? */
export function mayRead(viewer: Viewer, supplier: { clusterId: string | null; userId: string }) {
  if (viewer.id === supplier.userId) return true;
  const scope = listScope(viewer);
  return (
    scope.kind === 'all' || (scope.kind === 'cluster' && scope.clusterId === supplier.clusterId)
  );
}

/** May `viewer` register, edit or deactivate a supplier of `clusterId`? */
export function mayWrite(viewer: Viewer, clusterId: string | null): boolean {
  if (ALL.includes(viewer.role)) return true;
  return (
    viewer.role === ROLE.CLUSTER_MANAGER &&
    viewer.clusterId !== null &&
    viewer.clusterId === clusterId
  );
}

/**
 * The cluster a new supplier goes into: the cluster manager's own (whatever it sends, a
 * different one is refused); an administrator's choice (or none).
 */
export function clusterOfNewSupplier(
  viewer: Viewer,
  requested: string | null | undefined,
): { clusterId: string | null } | { refused: string; reason?: 'NO_CLUSTER' } {
  if (ALL.includes(viewer.role)) return { clusterId: requested ?? null };
  if (viewer.role !== ROLE.CLUSTER_MANAGER) return { refused: SUPPLIER_MESSAGES.forbidden };
  if (!viewer.clusterId) return { refused: SUPPLIER_MESSAGES.noCluster, reason: 'NO_CLUSTER' };
  if (requested && requested !== viewer.clusterId) {
    return { refused: SUPPLIER_MESSAGES.clusterOutOfReach };
  }
  return { clusterId: viewer.clusterId };
}

/** Listing the deactivated suppliers and reactivating one: the super admin. */
export const mayManageInactive = (viewer: Viewer) => viewer.role === ROLE.SUPER_ADMIN;
