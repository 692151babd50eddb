import { ROLE, type RoleCode } from '../../../kernel/roles.js';

/**
 * Who may do what with growers and their plots (spec §6, the actors' contract): pure rules,
 * given the caller and the grower's own row (its cluster and cooperative are the truth).
 *
 * - Read (list, detail, contracts, download): the super admin and an admin without cluster
 *   see every grower; an admin with a cluster, the cluster manager, the aggregator
 *   (industrial) and the SFD see their cluster's; a cooperative (ROLE_FARMER_ORGANIZATION)
 *   its own growers (cooperative_id = its organisation). Nobody else.
 * - Register, edit, add and edit plots: the super admin, an admin (its cluster if it has
 *   one) and the cluster manager of the grower's cluster. The cooperative cannot add.
 * - Ban (deactivate) and reinstate: the super admin only.
 * - The payout account is shown to those who register growers and to the cooperative.
 * A grower that exists but is out of reach answers 403 (as identity does for users), an
 * unknown id 404.
 */
export interface GrowerActor {
  id: string;
  role: RoleCode;
  clusterId: string | null;
  organizationId: string | null;
}

export interface GrowerReach {
  clusterId: string;
  cooperativeId: string | null;
}

/** The roles of each route (the guard's list; reach is checked on top). */
export const GROWER_ROUTE_ROLES = {
  read: [
    ROLE.SUPER_ADMIN,
    ROLE.ADMIN,
    ROLE.CLUSTER_MANAGER,
    ROLE.INDUSTRIAL,
    ROLE.SFD,
    ROLE.FARMER_ORGANIZATION,
  ],
  /** GET grower/cluster/{id}: one cluster's growers (not a cooperative's view). */
  cluster: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER, ROLE.INDUSTRIAL, ROLE.SFD],
  /** GET grower/no-cooperative: the cluster configuration's checklist (config/cluster, config/settings). */
  noCooperative: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER, ROLE.SFD],
  manage: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.CLUSTER_MANAGER],
  ban: [ROLE.SUPER_ADMIN],
} as const satisfies Record<string, readonly RoleCode[]>;

export const REACH_MESSAGES = {
  notFound: 'Producteur introuvable',
  plotNotFound: 'Parcelle introuvable',
  outOfReach: 'Ce producteur n’est pas dans votre périmètre',
  clusterOutOfReach: 'Ce cluster n’est pas dans votre périmètre',
  cooperativeOutOfReach: 'Cette coopérative n’est pas dans votre périmètre',
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez voir les producteurs',
  noOrganization:
    'Votre compte n’est rattaché à aucune coopérative : un administrateur doit vous en attribuer une avant que vous puissiez voir vos producteurs',
  inactiveList: 'Seul le super administrateur consulte les producteurs bannis',
  forbidden: 'Vous n’avez pas accès à cette ressource',
  notYourDownload: 'Ce téléchargement est celui d’un autre utilisateur',
} as const;

/** What part of the growers `actor` sees: all, a cluster's, a cooperative's — or why none. */
export type GrowerScope =
  | { kind: 'all' }
  | { kind: 'cluster'; clusterId: string }
  | { kind: 'cooperative'; cooperativeId: string }
  | { kind: 'none'; reason: 'NO_CLUSTER' | 'NO_ORGANIZATION' | 'ROLE' };

const READERS: readonly RoleCode[] = GROWER_ROUTE_ROLES.read;
const MANAGERS: readonly RoleCode[] = GROWER_ROUTE_ROLES.manage;

export function growerScope(actor: GrowerActor): GrowerScope {
  if (!READERS.includes(actor.role)) return { kind: 'none', reason: 'ROLE' };
  if (actor.role === ROLE.SUPER_ADMIN) return { kind: 'all' };
  if (actor.role === ROLE.ADMIN) {
    return actor.clusterId ? { kind: 'cluster', clusterId: actor.clusterId } : { kind: 'all' };
  }
  if (actor.role === ROLE.FARMER_ORGANIZATION) {
    return actor.organizationId
      ? { kind: 'cooperative', cooperativeId: actor.organizationId }
      : { kind: 'none', reason: 'NO_ORGANIZATION' };
  }
  return actor.clusterId
    ? { kind: 'cluster', clusterId: actor.clusterId }
    : { kind: 'none', reason: 'NO_CLUSTER' };
}

function inScope(scope: GrowerScope, grower: GrowerReach): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'cluster':
      return grower.clusterId === scope.clusterId;
    case 'cooperative':
      return grower.cooperativeId === scope.cooperativeId;
    case 'none':
      return false;
  }
}

/** May `actor` read this grower (detail, plots, contracts)? */
export const mayReadGrower = (actor: GrowerActor, grower: GrowerReach): boolean =>
  inScope(growerScope(actor), grower);

/** May `actor` edit this grower and its plots? */
export const mayManageGrower = (actor: GrowerActor, grower: GrowerReach): boolean =>
  MANAGERS.includes(actor.role) &&
  actor.role !== ROLE.FARMER_ORGANIZATION &&
  inScope(growerScope(actor), grower);

/** May `actor` register a grower in `clusterId`? */
export const mayRegisterIn = (actor: GrowerActor, clusterId: string): boolean =>
  mayManageGrower(actor, { clusterId, cooperativeId: null });

/** May `actor` read the growers of a whole cluster (GET grower/cluster/{id}, no-cooperative)? */
export function mayReadCluster(actor: GrowerActor, clusterId: string): boolean {
  const scope = growerScope(actor);
  return scope.kind === 'all' || (scope.kind === 'cluster' && scope.clusterId === clusterId);
}

/** Ban and reinstate: the super admin. */
export const mayBan = (actor: GrowerActor): boolean => actor.role === ROLE.SUPER_ADMIN;

/** The deactivated growers' list: the super admin. */
export const maySeeInactive = (actor: GrowerActor): boolean => actor.role === ROLE.SUPER_ADMIN;

/** The payout account: those who register growers, and the grower's own cooperative. */
export const maySeePayout = (actor: GrowerActor): boolean =>
  MANAGERS.includes(actor.role) || actor.role === ROLE.FARMER_ORGANIZATION;

/** The list's cooperative column: hidden from the cooperative itself (spec §2.1). */
export const showsCooperative = (actor: GrowerActor): boolean =>
  actor.role !== ROLE.FARMER_ORGANIZATION;
