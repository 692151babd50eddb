import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@filiere/platform';
import { ROLE } from '../../../kernel/roles.js';
import type { WalletDb } from '../../tables.js';
import { identityUsers } from '../../../identity/index.js';

/**
 * The signed-in user as the wallet's queries need it: the user the auth guard loaded from
 * the database on this request (`request.actor`), never the token's claims.
 */
export interface Caller {
  id: string;
  role: string;
  walletId: string;
  clusterId: string | null;
}

export const isAdminRole = (role: string): boolean =>
  role === ROLE.ADMIN || role === ROLE.SUPER_ADMIN;

/** The caller of a guarded route, from `request.actor` (no query: the guard loaded it). */
export function callerOfRequest(request: FastifyRequest): Caller {
  const actor = request.actor;
  if (!actor) throw new UnauthorizedError('Not authenticated');
  return {
    id: actor.id,
    role: actor.role_code,
    walletId: actor.wallet_id,
    clusterId: actor.cluster_id,
  };
}

/** The user whose data is asked for: the caller itself, or anyone for an admin. */
export async function targetUser(
  db: Kysely<WalletDb>,
  caller: Caller,
  userId: string,
): Promise<{ id: string; walletId: string }> {
  if (userId === caller.id) return { id: caller.id, walletId: caller.walletId };
  if (!isAdminRole(caller.role)) {
    throw new ForbiddenError('Vous n’avez pas accès aux données de cet utilisateur');
  }
  const row = await db
    .selectFrom(identityUsers().as('users'))
    .select(['id', 'wallet_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('Utilisateur introuvable');
  return { id: row.id, walletId: row.wallet_id };
}

/** Only the wallet's owner or an admin reads a wallet. */
export function requireWalletAccess(caller: Caller, walletId: string): void {
  if (walletId !== caller.walletId && !isAdminRole(caller.role)) {
    throw new ForbiddenError('Ce portefeuille ne vous appartient pas');
  }
}

/** The caller of a guarded route (async for the routes that await it; no query is made). */
export const callerOf = async (_app: FastifyInstance, request: FastifyRequest): Promise<Caller> =>
  callerOfRequest(request);
