import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@filiere/platform';
import { ROLE } from '../../../kernel/roles.js';

/** The signed-in user as the wallet's queries need it (read from `users`, not the token). */
export interface Caller {
  id: string;
  role: string;
  walletId: string;
  clusterId: string | null;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isAdminRole = (role: string): boolean =>
  role === ROLE.ADMIN || role === ROLE.SUPER_ADMIN;

export async function loadCaller(db: Kysely<any>, request: FastifyRequest): Promise<Caller> {
  const sub = request.user?.sub;
  const row =
    sub && UUID_RE.test(sub)
      ? await db
          .selectFrom('users as u')
          .innerJoin('roles as r', 'r.id', 'u.role_id')
          .select(['u.id', 'u.wallet_id', 'u.cluster_id', 'r.code', 'u.is_active'])
          .where('u.id', '=', sub)
          .where('u.deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
  if (!row || !row.is_active) throw new UnauthorizedError('Not authenticated');
  return { id: row.id, role: row.code, walletId: row.wallet_id, clusterId: row.cluster_id };
}

/** The user whose data is asked for: the caller itself, or anyone for an admin. */
export async function targetUser(
  db: Kysely<any>,
  caller: Caller,
  userId: string,
): Promise<{ id: string; walletId: string }> {
  if (userId === caller.id) return { id: caller.id, walletId: caller.walletId };
  if (!isAdminRole(caller.role)) {
    throw new ForbiddenError('Vous n’avez pas accès aux données de cet utilisateur');
  }
  const row = await db
    .selectFrom('users')
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

export const callerOf = (app: FastifyInstance, request: FastifyRequest) =>
  loadCaller(app.deps.db, request);
