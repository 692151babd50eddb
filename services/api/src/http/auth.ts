import fastifyJwt from '@fastify/jwt';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { ForbiddenError, UnauthorizedError } from '@filiere/platform';

/** The 12 role codes of the spec. */
export const ROLE_CODES = [
  'ROLE_SUPER_ADMIN',
  'ROLE_ADMIN',
  'ROLE_GROWER',
  'ROLE_CARRIER',
  'ROLE_INDUSTRIAL',
  'ROLE_SECRETARY',
  'ROLE_ACCOUNTING',
  'ROLE_DIRECTOR',
  'ROLE_INPUT_PROVIDER',
  'ROLE_FARMER_ORGANIZATION',
  'ROLE_CLUSTER_MANAGER',
  'ROLE_SFD',
] as const;
export type RoleCode = (typeof ROLE_CODES)[number];

/** Who may call a route, as its guard declares it: no guard, any valid token, or these roles. */
export type RouteAccess = 'public' | 'signed-in' | readonly RoleCode[];

const ACCESS = Symbol.for('filiere.routeAccess');
const withAccess = <T extends object>(guard: T, access: RouteAccess): T =>
  Object.assign(guard, { [ACCESS]: access });

/** The access a route's preHandlers declare ('public' when none is a guard of this file). */
export function accessOf(preHandler: unknown): RouteAccess {
  const handlers = Array.isArray(preHandler) ? preHandler.flat(2) : [preHandler];
  for (const h of handlers) {
    const access = h && (h as Record<symbol, RouteAccess | undefined>)[ACCESS];
    if (access) return access;
  }
  return 'public';
}

/** What an access token carries: subject = user id, and the role code. */
export interface AccessClaims {
  sub: string;
  role: RoleCode;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AccessClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid access token. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: 401 without a valid token, 403 unless the role is one of `roles`. */
    requireRoles(...roles: RoleCode[]): preHandlerAsyncHookHandler;
    /** `METHOD /url` → the access its guard declares, for every route registered after auth. */
    routeAccess: Map<string, RouteAccess>;
  }
}

export const ACCESS_TOKEN_TTL = '12h';

/**
 * JWT access tokens (HS256, 12 h). Routes opt in with `preHandler:
 * app.authenticate` or `app.requireRoles(...)`; ownership checks stay in the
 * route's service, next to the data they protect.
 */
export async function registerAuth(app: FastifyInstance, secret: string): Promise<void> {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL },
    verify: { algorithms: ['HS256'] },
  });

  const authenticate = async (request: FastifyRequest, _reply: FastifyReply) => {
    try {
      await request.jwtVerify();
    } catch {
      throw new UnauthorizedError('Not authenticated');
    }
    if (!request.user?.sub || !request.user.role) throw new UnauthorizedError('Not authenticated');
  };
  app.decorate('authenticate', withAccess(authenticate, 'signed-in'));
  app.decorate('requireRoles', (...roles: RoleCode[]) => {
    const allowed = new Set<RoleCode>(roles);
    return withAccess(async (request: FastifyRequest, reply: FastifyReply) => {
      await authenticate(request, reply);
      if (!allowed.has(request.user.role)) {
        throw new ForbiddenError('Vous n’avez pas accès à cette ressource');
      }
    }, roles);
  });
  // The route table with each route's declared access: the security matrix reads it.
  const routeAccess = new Map<string, RouteAccess>();
  app.decorate('routeAccess', routeAccess);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeAccess.set(`${method} ${route.url}`, accessOf(route.preHandler));
    }
  });
}
