import {
  handleCommand,
  streamRef,
  type CommandPipeline,
  type EventStore,
} from '@filiere/event-store';
import { ConflictError, ForbiddenError, NotFoundError } from '@filiere/platform';
import { isPlatformAuditor, type SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { clusterStream, clusterStreamId, type ClusterEvent } from './catalogue.js';
import {
  CLUSTER_MESSAGES,
  CLUSTER_READERS_ALL,
  clusterToConfigure,
  decideConfiguration,
  mayReadCluster,
  type ClusterActor,
  type ConfigurationRequest,
} from './domain/configuration.js';
import {
  cooperativeCandidates,
  findCluster,
  findIndustrial,
  growerCandidates,
  moveIntoCluster,
  readConfig,
  type ClusterConfigView,
  type ClustersDb,
} from './queries.js';
import { identityUsers } from '../../identity/index.js';

/**
 * Moves users into a cluster (their `users.cluster_id`, audited on their own streams):
 * identity's members `setCluster`.
 */
export type MoveUsers = (userIds: string[], clusterId: string, actorId: string) => Promise<void>;

export const actorOf = (user: SignedInUser): ClusterActor => ({
  id: user.id,
  role: user.role_code,
  clusterId: user.cluster_id,
});

export interface ClusterAuditEntry {
  position: number;
  type: string;
  recordedAt: string;
  actorId: string | null;
  data: Record<string, unknown>;
}

/** 'Configurer mon cluster': reads and writes, with the rules of domain/configuration.ts. */
export class ClusterService {
  constructor(
    private readonly db: ClustersDb,
    private readonly commands: CommandPipeline,
    private readonly moveUsers: MoveUsers,
  ) {}

  /** GET clusters/config/{userId}: the configuration of that user's cluster. */
  async configOf(actor: ClusterActor, userId: string): Promise<ClusterConfigView> {
    const self = userId === actor.id;
    if (!self && !CLUSTER_READERS_ALL.includes(actor.role)) {
      throw new ForbiddenError(CLUSTER_MESSAGES.notYourCluster);
    }
    const user = await this.db
      .selectFrom(identityUsers().as('users'))
      .select(['id', 'cluster_id'])
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) throw new NotFoundError(CLUSTER_MESSAGES.userNotFound);
    if (!user.cluster_id) {
      if (self) throw new ForbiddenError(CLUSTER_MESSAGES.noCluster, { reason: 'NO_CLUSTER' });
      throw new NotFoundError('Aucun cluster n’est attribué à cet utilisateur');
    }
    const cluster = await findCluster(this.db, user.cluster_id);
    if (!cluster) throw new NotFoundError(CLUSTER_MESSAGES.clusterNotFound);
    return readConfig(this.db, cluster);
  }

  /** GET clusters/cluster/{id}: 404 for an unknown cluster, 403 outside the caller's reach. */
  async cluster(actor: ClusterActor, clusterId: string): Promise<ClusterConfigView> {
    const cluster = await findCluster(this.db, clusterId);
    if (!cluster) throw new NotFoundError(CLUSTER_MESSAGES.clusterNotFound);
    if (!mayReadCluster(actor, clusterId)) throw new ForbiddenError(CLUSTER_MESSAGES.notReachable);
    return readConfig(this.db, cluster);
  }

  /**
   * POST clusters/create-configs. One transaction on the cluster's row (locked, so two saves
   * of one cluster run one after the other): rename, aggregator, moves of the cooperatives
   * (with their growers) and growers; the ClusterConfigured event is appended before it
   * commits (a refused or failed append rolls everything back). The moved users' own
   * `cluster_id` then follows through identity (each audited on its user stream).
   */
  async configure(
    actor: ClusterActor,
    request: ConfigurationRequest & { managerUserId?: string | null | undefined },
  ): Promise<ClusterConfigView> {
    const clusterId = clusterToConfigure(actor, request.managerUserId);
    let userIds: string[] = [];
    try {
      userIds = await this.db.transaction().execute(async (trx) => {
        const cluster = await trx
          .selectFrom('clusters')
          .select(['id', 'label'])
          .where('id', '=', clusterId)
          .forUpdate()
          .executeTakeFirst();
        if (!cluster) throw new NotFoundError(CLUSTER_MESSAGES.clusterNotFound);
        const settings = await trx
          .selectFrom('cluster_settings')
          .select('industrial_user_id')
          .where('cluster_id', '=', clusterId)
          .executeTakeFirst();
        const decision = decideConfiguration(
          {
            clusterId,
            label: cluster.label,
            industrialUserId: settings?.industrial_user_id ?? null,
            industrialValid: !!(await findIndustrial(trx, request.industrialUserId)),
            cooperatives: await cooperativeCandidates(trx, request.cooperativeIds),
            growers: await growerCandidates(trx, request.growersId),
          },
          request,
          actor.id,
        );
        if (decision.label !== cluster.label) {
          await trx
            .updateTable('clusters')
            .set({ label: decision.label })
            .where('id', '=', clusterId)
            .execute();
        }
        await trx
          .insertInto('cluster_settings')
          .values({
            cluster_id: clusterId,
            industrial_user_id: decision.industrialUserId,
            manager_user_id: actor.id,
            updated_by: actor.id,
          })
          .onConflict((oc) =>
            oc.column('cluster_id').doUpdateSet({
              industrial_user_id: decision.industrialUserId,
              manager_user_id: actor.id,
              updated_by: actor.id,
              updated_at: new Date(),
            }),
          )
          .execute();
        const moved = await moveIntoCluster(
          trx,
          clusterId,
          decision.cooperativesToMove,
          decision.growersToMove,
        );
        await this.append(clusterId, actor.id, decision.event);
        return moved;
      });
    } catch (error) {
      const e = error as { code?: string; constraint?: string };
      if (e?.code === '23505' && e.constraint === 'clusters_label_key') {
        throw new ConflictError(CLUSTER_MESSAGES.labelTaken, {
          fields: { clusterName: CLUSTER_MESSAGES.labelTaken },
        });
      }
      throw error;
    }
    if (userIds.length) await this.moveUsers(userIds, clusterId, actor.id);
    const cluster = (await findCluster(this.db, clusterId))!;
    return readConfig(this.db, cluster);
  }

  /** The cluster's configuration history, newest first (who changed what, when). */
  async audit(
    store: EventStore,
    user: SignedInUser,
    clusterId: string,
  ): Promise<{ data: ClusterAuditEntry[]; count: number }> {
    if (user.role_code === ROLE.ACCOUNTING) {
      // The platform's auditor reads every cluster's trail; an organisation's accountant none
      // (its reach is its organisation's wallets and accounts, not a cluster's configuration).
      if (!isPlatformAuditor(user)) throw new ForbiddenError(CLUSTER_MESSAGES.notReachable);
      if (!(await findCluster(this.db, clusterId))) {
        throw new NotFoundError(CLUSTER_MESSAGES.clusterNotFound);
      }
    } else {
      await this.cluster(actorOf(user), clusterId);
    }
    const events = await store.readStream(clusterStreamId(clusterId));
    const data = [...events].reverse().map((e) => {
      const payload = e.data as Record<string, unknown> & { actorId?: string };
      return {
        position: e.position,
        type: e.type,
        recordedAt: e.recordedAt.toISOString(),
        actorId: payload.actorId ?? null,
        data: payload,
      };
    });
    return { data, count: data.length };
  }

  private async append(clusterId: string, actorId: string, event: ClusterEvent): Promise<void> {
    const cluster = streamRef(clusterStream, clusterStreamId(clusterId));
    await handleCommand(this.commands, {
      streams: { cluster },
      metadata: { userId: actorId },
      decide: () => ({ writes: [{ streamId: cluster.id, events: [event] }], result: undefined }),
    });
  }
}
