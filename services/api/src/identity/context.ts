import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { RoleCode } from '../kernel/roles.js';
import type { AuthService } from './auth.service.js';
import type { IdentityRepository, UserRow } from './repository.js';
import type { UsersService } from './users.service.js';

/** What the identity route files share. */
export interface IdentityContext {
  repo: IdentityRepository;
  auth: AuthService;
  users: UsersService;
  limitAttempts: preHandlerAsyncHookHandler;
  /** preHandlers: a valid token (of one of `roles`, if given) whose user still exists and is active. */
  guard(...roles: RoleCode[]): preHandlerAsyncHookHandler[];
  /** Authenticates inside a handler (for routes public or not depending on a parameter). */
  requireActor(request: FastifyRequest): Promise<UserRow>;
}

/**
 * Identity's guards are the app's (http/auth.ts): they load the signed-in user once per
 * request, check its current role, state and token version, and leave it on
 * `request.actor`, which identity's services read (no second load).
 */
export function makeGuard(app: FastifyInstance) {
  const guard = (...roles: RoleCode[]): preHandlerAsyncHookHandler[] => [
    roles.length ? app.requireRoles(...roles) : app.authenticate,
  ];
  const requireActor = async (request: FastifyRequest): Promise<UserRow> => {
    await app.authenticate.call(app, request, undefined as never);
    return request.actor!;
  };
  return { guard, requireActor };
}
