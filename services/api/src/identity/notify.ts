import type { FastifyInstance } from 'fastify';
import { pgPushPublisher, redisPushPublisher, type PushPublisher } from '@filiere/projections';
import type { IdentityRepository } from './repository.js';
import { ROLE } from '../kernel/roles.js';

/**
 * Every push type identity publishes (to the signed-in super admins): the module declares
 * them (index.ts) and the web's typed table maps each to the queries it refreshes.
 * - `user.inactive.created` {userId, role}: an account self-registered, inactive (the
 *   'Utilisateurs' counter of inactive accounts grows).
 * - `user.status.changed` {userId, isActive}: an account activated or deactivated.
 * - `user.deleted` {userId}: an account deleted (the lists and the counter drop it).
 * - `user.industrialToAdd` {userId}: an aggregator (ROLE_INDUSTRIAL) became active, created
 *   active or activated: a new industrial can be added to a season.
 */
export const USER_PUSH = {
  inactiveCreated: 'user.inactive.created',
  statusChanged: 'user.status.changed',
  deleted: 'user.deleted',
  industrialToAdd: 'user.industrialToAdd',
} as const;
export type UserPushType = (typeof USER_PUSH)[keyof typeof USER_PUSH];

/**
 * Tells the signed-in super admins that the inactive-aggregator counter moved,
 * through the same channel as the projectors' pushes (Redis, else NOTIFY).
 * A failed push is logged: the counter also refreshes on the next load.
 */
export function superAdminNotifier(app: FastifyInstance, repo: IdentityRepository) {
  const publish: PushPublisher = app.deps.redis
    ? redisPushPublisher(app.deps.redis)
    : pgPushPublisher(app.deps.db);
  return async (type: UserPushType, data: Record<string, unknown>): Promise<void> => {
    try {
      const { rows } = await repo.list({ roles: [ROLE.SUPER_ADMIN], activeOnly: true }, 1, -1);
      if (rows.length) await publish([{ type, userIds: rows.map((r) => r.id), data }]);
    } catch (error) {
      app.log.warn({ err: error, type }, 'push not published');
    }
  };
}
