import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { PushMessage, PushPublisher } from '@filiere/projections';
import type { IdentityTables } from '../../identity/index.js';
import { ROLE } from '../../kernel/roles.js';
import { identityUsers } from '../../identity/index.js';

/**
 * The push types of the cooperatives and carriers areas: a row was registered, changed,
 * deactivated or reactivated, sent to those who see it in their list (the admins, and the
 * cluster manager and aggregator of its cluster). The web's typed table
 * (web/src/shared/realtime) refreshes the lists.
 */
export const COOPERATIVE_PUSHES = ['actors.cooperative.changed'] as const;
export const CARRIER_PUSHES = ['actors.carrier.changed'] as const;
type ActorPushType = (typeof COOPERATIVE_PUSHES)[number] | (typeof CARRIER_PUSHES)[number];

/** A push of these areas: an undeclared type does not compile. */
export const actorPush = (msg: PushMessage & { type: ActorPushType }): PushMessage => msg;

/** The active users who see the rows of `clusterId`. */
export async function watchersOf<DB extends IdentityTables>(pool: Kysely<DB>, clusterId: string) {
  const rows = await narrowDb<IdentityTables>()(pool)
    .selectFrom(identityUsers().as('u'))
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select('u.id')
    .where('u.deleted_at', 'is', null)
    .where('u.is_active', '=', true)
    .where((eb) =>
      eb.or([
        eb('r.code', 'in', [ROLE.SUPER_ADMIN, ROLE.ADMIN]),
        eb.and([
          eb('u.cluster_id', '=', clusterId),
          eb('r.code', 'in', [ROLE.CLUSTER_MANAGER, ROLE.INDUSTRIAL]),
        ]),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}

/** Publishes a change to the watchers of `clusterId` (a lost push is only logged). */
export async function publishChange<DB extends IdentityTables>(
  deps: { pool: Kysely<DB>; publish?: PushPublisher; log?: (e: unknown) => void },
  clusterId: string,
  message: (userIds: string[]) => PushMessage,
): Promise<void> {
  if (!deps.publish) return;
  try {
    const userIds = await watchersOf(deps.pool, clusterId);
    if (userIds.length) await deps.publish([message(userIds)]);
  } catch (error) {
    deps.log?.(error);
  }
}
