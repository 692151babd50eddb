import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { UnauthorizedError } from '@filiere/platform';
import type { RoleCode } from '../http/auth.js';
import type { AuthService } from './auth.service.js';
import type { IdentityRepository, UserRow } from './repository.js';
import type { UsersService } from './users.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, loaded from the database by `IdentityContext.guard`. */
    actor?: UserRow;
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

export function makeGuard(app: FastifyInstance, repo: IdentityRepository) {
  const loadActor = async (request: FastifyRequest): Promise<void> => {
    const sub = request.user?.sub;
    const row = sub && UUID_RE.test(sub) ? await repo.findById(sub) : undefined;
    if (!row || !row.is_active) throw new UnauthorizedError('Not authenticated');
    request.actor = row;
  };
  const guard = (...roles: RoleCode[]): preHandlerAsyncHookHandler[] => [
    roles.length ? app.requireRoles(...roles) : app.authenticate,
    loadActor,
  ];
  const requireActor = async (request: FastifyRequest): Promise<UserRow> => {
    await app.authenticate.call(app, request, undefined as never);
    await loadActor(request);
    return request.actor!;
  };
  return { guard, requireActor };
}
