import fastifyJwt from '@fastify/jwt';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { StaleReadError } from '@filiere/event-store';
import { ForbiddenError, UnauthorizedError } from '@filiere/platform';
import type { GuardedUser, SignedInUser, UserDirectory } from '../kernel/actor.js';
import type { RoleCode } from '../kernel/roles.js';

export { ROLE_CODES, type RoleCode } from '../kernel/roles.js';

/** Who may call a route, as its guard declares it: no guard, any valid token, or these roles. */
export type RouteAccess = 'public' | 'signed-in' | readonly RoleCode[];

const ACCESS = Symbol.for('filiere.routeAccess');
const withAccess = <T extends object>(guard: T, access: RouteAccess): T =>
  Object.assign(guard, { [ACCESS]: access });

/** The guard of this file among a route's preHandlers, if any. */
function guardOf(preHandler: unknown): { [ACCESS]: RouteAccess } | undefined {
  const handlers: unknown[] = Array.isArray(preHandler) ? preHandler.flat(2) : [preHandler];
  return handlers.find(
    (h): h is { [ACCESS]: RouteAccess } =>
      !!h && !!(h as Record<symbol, RouteAccess | undefined>)[ACCESS],
  );
}

/** The access a route's preHandlers declare ('public' when none is a guard of this file). */
export function accessOf(preHandler: unknown): RouteAccess {
  const guard = guardOf(preHandler);
  return guard ? guard[ACCESS] : 'public';
}

/**
 * What an access token carries: subject = user id, the role code at sign-in (for the web
 * app's menus only: the guard authorizes with the user's current role), and the user's
 * token version at sign-in (`tv`, absent = 0), which the guard compares with the current one.
 */
export interface AccessClaims {
  sub: string;
  role: RoleCode;
  tv?: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AccessClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid access token of a current user. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: 401 as `authenticate`, 403 unless the user's CURRENT role is one of `roles`. */
    requireRoles(...roles: RoleCode[]): preHandlerAsyncHookHandler;
    /** The user an access token designates, as the guard checks it (websocket, own guards). */
    userOfToken(token: string): Promise<SignedInUser>;
    /** `METHOD /url` → the access its guard declares, for every route registered after auth. */
    routeAccess: Map<string, RouteAccess>;
    /**
     * For a route declared `config: { actorFromDirectory: true }`: runs `work` with the actor the
     * guard took from the user directory (and its read guard, which the route's command must
     * name); when the append finds a user it relied on changed since (StaleReadError), the
     * actor is read fresh and authorized again (401/403 as the guard), and `work` runs again
     * with `fresh`, to read the other users fresh too.
     */
    withGuardedActor<T>(
      request: FastifyRequest,
      work: (me: GuardedUser, fresh: boolean) => Promise<T>,
    ): Promise<T>;
  }
  interface FastifyContextConfig {
    /**
     * The guard takes the user from the per-process user directory (no round trip), because
     * the route's command names the user's read guard (see `withGuardedActor`). Only for routes
     * whose every decision on the actor is carried by such a command.
     */
    actorFromDirectory?: boolean;
  }
  interface FastifyRequest {
    /**
     * The signed-in user as the database has it now (role, cluster, state), loaded once
     * per request by `authenticate`/`requireRoles`: the one actor every route reads.
     */
    actor?: SignedInUser;
    /** The actor's read guard, when the guard took it from the user directory. */
    actorGuard?: GuardedUser;
    /** Reads the actor fresh and authorizes it again, as the route's guard does. */
    reauthorize?: () => Promise<void>;
  }
}

/** Finds a user (not deleted) by id, as identity stores it: identity's module provides it. */
export type UserLoader = (userId: string) => Promise<SignedInUser | undefined>;

export const NOT_AUTHENTICATED = 'Session invalide ou expirée : veuillez vous reconnecter';

/**
 * How many times `withGuardedActor` reads its users again and runs the route's work again
 * after a StaleReadError. Each retry reads them fresh, so only a change committed after that
 * read makes it stale again: a request whose users change at most this many times while it
 * is in flight succeeds; one that loses more races answers the StaleReadError's 409
 * ('réessayez'), having appended nothing.
 */
export const STALE_READ_RETRIES = 3;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The current user behind verified claims, or 401: the user must still exist (not deleted),
 * be active, and the token must carry the user's current token version (a password change
 * or reset, a deactivation, a deletion or a role change bumps it, revoking older tokens).
 */
export async function currentUser(
  loadUser: UserLoader,
  claims: Partial<AccessClaims> | undefined,
): Promise<SignedInUser> {
  const sub = claims?.sub;
  if (typeof sub !== 'string' || !UUID_RE.test(sub) || !claims?.role) {
    throw new UnauthorizedError(NOT_AUTHENTICATED);
  }
  const row = await loadUser(sub);
  const version = typeof claims.tv === 'number' ? claims.tv : 0;
  if (!row || !row.is_active || row.token_version !== version) {
    throw new UnauthorizedError(NOT_AUTHENTICATED);
  }
  return row;
}

export const ACCESS_TOKEN_TTL = '12h';

/**
 * JWT access tokens (HS256, 12 h). Routes opt in with `preHandler:
 * app.authenticate` or `app.requireRoles(...)`; both load the user by primary key on every
 * request and authorize with its current role and state (`request.actor`), never with the
 * token's role claim. Ownership checks stay in the route's service, next to the data they
 * protect.
 */
export async function registerAuth(
  app: FastifyInstance,
  secret: string,
  loadUser: UserLoader,
  directory?: UserDirectory,
): Promise<void> {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL },
    verify: { algorithms: ['HS256'] },
  });

  /** The actor from the directory (fresh: read now), with its read guard. */
  const fromDirectory = async (request: FastifyRequest, fresh: boolean) => {
    let found: GuardedUser | undefined;
    const user = await currentUser(async (id) => {
      found = await directory!.find(id, fresh);
      return found && !found.deleted && found.user.id === id.toLowerCase() ? found.user : undefined;
    }, request.user);
    request.actor = user;
    request.actorGuard = found;
  };
  const authenticate = async (request: FastifyRequest, _reply: FastifyReply) => {
    if (request.actor) return; // already loaded by an earlier guard of this request
    try {
      await request.jwtVerify();
    } catch {
      throw new UnauthorizedError(NOT_AUTHENTICATED);
    }
    if (!directory || request.routeOptions.config.actorFromDirectory !== true) {
      request.actor = await currentUser(loadUser, request.user);
      return;
    }
    request.reauthorize = () => fromDirectory(request, true);
    try {
      await fromDirectory(request, false);
    } catch (error) {
      // A refusal is never decided on what the directory remembers: read the user now.
      if (!(error instanceof UnauthorizedError)) throw error;
      await request.reauthorize();
    }
  };
  app.decorate('authenticate', withAccess(authenticate, 'signed-in'));
  app.decorate('requireRoles', (...roles: RoleCode[]) => {
    const allowed = new Set<RoleCode>(roles);
    const refuseUnlessAllowed = (request: FastifyRequest) => {
      if (!allowed.has(request.actor!.role_code)) {
        throw new ForbiddenError('Vous n’avez pas accès à cette ressource');
      }
    };
    return withAccess(async (request: FastifyRequest, reply: FastifyReply) => {
      const loaded = request.actor !== undefined;
      await authenticate(request, reply);
      if (request.actorGuard && !loaded) {
        const fresh = async () => {
          await fromDirectory(request, true);
          refuseUnlessAllowed(request);
        };
        request.reauthorize = fresh;
        if (!allowed.has(request.actor!.role_code)) await fresh();
      }
      refuseUnlessAllowed(request);
    }, roles);
  });
  app.decorate(
    'withGuardedActor',
    async <T>(
      request: FastifyRequest,
      work: (me: GuardedUser, fresh: boolean) => Promise<T>,
    ): Promise<T> => {
      if (!request.actorGuard || !request.reauthorize) {
        throw new Error('withGuardedActor: the route is not declared actorFromDirectory');
      }
      for (let attempt = 0; ; attempt++) {
        try {
          return await work(request.actorGuard, attempt > 0);
        } catch (error) {
          if (!(error instanceof StaleReadError) || attempt >= STALE_READ_RETRIES) throw error;
          await request.reauthorize();
        }
      }
    },
  );
  app.decorate('userOfToken', async (token: string) => {
    let claims: AccessClaims;
    try {
      claims = app.jwt.verify<AccessClaims>(token);
    } catch {
      throw new UnauthorizedError(NOT_AUTHENTICATED);
    }
    return currentUser(loadUser, claims);
  });
  // The route table with each route's declared access: the security matrix reads it.
  const routeAccess = new Map<string, RouteAccess>();
  app.decorate('routeAccess', routeAccess);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeAccess.set(`${method} ${route.url}`, accessOf(route.preHandler));
    }
    // Authentication before anything reads the request: a route's guard runs at onRequest
    // too, before the body is parsed and the input validated, so an anonymous caller gets 401
    // (a caller without the role 403) and never a 400 naming its bad field, nor a 413/415.
    // At preHandler it then finds `request.actor` loaded and only re-checks the role.
    const guard = guardOf(route.preHandler);
    const onRequest = [route.onRequest ?? []].flat();
    if (guard && !onRequest.includes(guard as never)) {
      route.onRequest = [...onRequest, guard as never];
    }
  });
}
