import { ConflictError, ForbiddenError, ValidationError } from '@filiere/platform';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import type { ClusterEvent } from '../catalogue.js';

/**
 * 'Configurer mon cluster' (spec §2.7, decisions "Clusters and seasons"): the rules, pure.
 * A cluster is a production basin: its name, its aggregator, its cooperatives and its growers
 * without cooperative. Its cluster manager configures it (the SFD reuses the screen for its
 * own cluster); administrators read it. Choosing a cooperative or a grower moves it (and its
 * users) into the cluster; a cooperative's growers follow it. Nothing is taken out of a
 * cluster here: an unticked row already in the cluster stays (a cooperative always belongs
 * to a cluster; moving one elsewhere is the super admin's edit of that cooperative).
 */

export const CLUSTER_MESSAGES = {
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez le configurer',
  notYourCluster: 'Vous ne pouvez configurer que votre propre cluster',
  notReachable: 'Ce cluster n’est pas dans votre périmètre',
  clusterNotFound: 'Cluster introuvable',
  userNotFound: 'Utilisateur introuvable',
  industrialRequired: 'Ce champ est obligatoire',
  industrialNotFound: 'Agrégateur introuvable ou inactif',
  cooperativeNotFound: 'Coopérative introuvable',
  cooperativeElsewhere: (label: string) =>
    `La coopérative « ${label} » appartient à un autre cluster`,
  growerNotFound: 'Producteur introuvable',
  growerHasCooperative: (name: string) =>
    `Le producteur ${name} appartient à une coopérative : il suit le cluster de sa coopérative`,
  growerElsewhere: (name: string) => `Le producteur ${name} appartient à un autre cluster`,
  labelTaken: 'Un autre cluster porte déjà ce nom',
} as const;

/** The roles that configure their own cluster. */
export const CONFIGURERS: readonly RoleCode[] = [ROLE.CLUSTER_MANAGER, ROLE.SFD];
/** The roles that read any cluster's configuration. */
export const CLUSTER_READERS_ALL: readonly RoleCode[] = [ROLE.SUPER_ADMIN, ROLE.ADMIN];

export interface ClusterActor {
  id: string;
  role: RoleCode;
  clusterId: string | null;
}

/** The cluster `actor` configures, or the refusal (no cluster; someone else's config). */
export function clusterToConfigure(actor: ClusterActor, managerUserId?: string | null): string {
  if (managerUserId && managerUserId !== actor.id) {
    throw new ForbiddenError(CLUSTER_MESSAGES.notYourCluster);
  }
  if (!CONFIGURERS.includes(actor.role)) throw new ForbiddenError(CLUSTER_MESSAGES.notYourCluster);
  if (!actor.clusterId) {
    throw new ForbiddenError(CLUSTER_MESSAGES.noCluster, { reason: 'NO_CLUSTER' });
  }
  return actor.clusterId;
}

/** May `actor` read cluster `clusterId`'s configuration? Administrators all; others their own. */
export function mayReadCluster(actor: ClusterActor, clusterId: string): boolean {
  return CLUSTER_READERS_ALL.includes(actor.role) || actor.clusterId === clusterId;
}

/** A cooperative or a grower named by the request, as the tables hold it (undefined: unknown). */
export interface Candidate {
  id: string;
  /** Shown in messages: the cooperative's denomination, the grower's names. */
  label: string;
  clusterId: string | null;
  /** Growers only: the grower belongs to a cooperative. */
  cooperativeId?: string | null;
}

export interface ConfigurationState {
  clusterId: string;
  label: string;
  industrialUserId: string | null;
  /** The chosen aggregator is an active ROLE_INDUSTRIAL user. */
  industrialValid: boolean;
  /** The requested cooperatives and growers, by id, as found (absent: unknown or deactivated). */
  cooperatives: Map<string, Candidate>;
  growers: Map<string, Candidate>;
}

export interface ConfigurationRequest {
  clusterName: string;
  industrialUserId: string;
  cooperativeIds: readonly string[];
  growersId: readonly string[];
}

export interface ConfigurationDecision {
  label: string;
  industrialUserId: string;
  /** Cooperatives (organisation ids) to move into the cluster (with their growers and users). */
  cooperativesToMove: string[];
  /** Growers without cooperative to move into the cluster (with their users). */
  growersToMove: string[];
  event: ClusterEvent;
}

const fieldError = (field: string, message: string) =>
  new ValidationError(message, { fields: { [field]: message } });

/** Decides a configuration: refusals in the order the form shows its fields. */
export function decideConfiguration(
  state: ConfigurationState,
  request: ConfigurationRequest,
  actorId: string,
): ConfigurationDecision {
  if (!state.industrialValid) {
    throw fieldError('industrialUserId', CLUSTER_MESSAGES.industrialNotFound);
  }
  const cooperativesToMove: string[] = [];
  for (const id of new Set(request.cooperativeIds)) {
    const coop = state.cooperatives.get(id);
    if (!coop) throw fieldError('cooperativeIds', CLUSTER_MESSAGES.cooperativeNotFound);
    if (coop.clusterId === state.clusterId) continue;
    if (coop.clusterId !== null) {
      throw new ConflictError(CLUSTER_MESSAGES.cooperativeElsewhere(coop.label), {
        reason: 'COOPERATIVE_IN_ANOTHER_CLUSTER',
      });
    }
    cooperativesToMove.push(id);
  }
  const growersToMove: string[] = [];
  for (const id of new Set(request.growersId)) {
    const grower = state.growers.get(id);
    if (!grower) throw fieldError('growersId', CLUSTER_MESSAGES.growerNotFound);
    if (grower.cooperativeId) {
      throw fieldError('growersId', CLUSTER_MESSAGES.growerHasCooperative(grower.label));
    }
    if (grower.clusterId === state.clusterId) continue;
    if (grower.clusterId !== null) {
      throw new ConflictError(CLUSTER_MESSAGES.growerElsewhere(grower.label), {
        reason: 'GROWER_IN_ANOTHER_CLUSTER',
      });
    }
    growersToMove.push(id);
  }
  return {
    label: request.clusterName,
    industrialUserId: request.industrialUserId,
    cooperativesToMove,
    growersToMove,
    event: {
      type: 'ClusterConfigured',
      data: {
        clusterId: state.clusterId,
        actorId,
        labelFrom: state.label,
        labelTo: request.clusterName,
        industrialFrom: state.industrialUserId,
        industrialTo: request.industrialUserId,
        cooperativesMovedIn: cooperativesToMove,
        growersMovedIn: growersToMove,
      },
    },
  };
}
