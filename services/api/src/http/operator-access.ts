import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '@filiere/platform';
import { NOT_AUTHENTICATED } from './auth.js';
import { ROLE, type RoleCode } from '../kernel/roles.js';

const METRICS_ROLES = new Set<RoleCode>([ROLE.ADMIN, ROLE.SUPER_ADMIN]);

/**
 * 401 without credentials, 403 for a signed-in user who is not an admin. In production it
 * also guards /api/docs and the details of /api/ready (http/openapi.ts, http/health.ts).
 */
export function metricsAccess(app: FastifyInstance) {
  const token = app.deps.config.METRICS_TOKEN;
  const expected = token === undefined ? undefined : digest(token);
  return async (request: FastifyRequest) => {
    const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined) throw new UnauthorizedError(NOT_AUTHENTICATED);
    if (expected && timingSafeEqual(digest(presented), expected)) return;
    // As the guard of every route: the user as it is now (a deleted or demoted admin's
    // token reads no metrics).
    const user = await app.userOfToken(presented);
    if (!METRICS_ROLES.has(user.role_code)) {
      throw new ForbiddenError('Vous n’avez pas accès à cette ressource');
    }
  };
}

/** Fixed-length digests, so the comparison takes the same time whatever the token's length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
