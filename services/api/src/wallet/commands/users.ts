import type { Kysely } from 'kysely';
import { NotFoundError, UnauthorizedError } from '@filiere/platform';
import type { Actor, RecipientStatus } from '../domain/index.js';

/** What the wallet needs to know about a user (from the identity tables). */
export interface WalletUser {
  id: string;
  role: string;
  walletId: string;
  clusterId: string | null;
  firstname: string;
  lastname: string;
  phone: string | null;
  momoAccountNumber: string | null;
  bankAccountNumber: string | null;
  isActive: boolean;
  /** Soft-deleted (only returned when asked for with `includeDeleted`). */
  deleted: boolean;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_RE.test(value);

function toUser(row: Record<string, unknown>): WalletUser {
  return {
    id: row.id as string,
    role: row.role_code as string,
    walletId: row.wallet_id as string,
    clusterId: (row.cluster_id as string | null) ?? null,
    firstname: row.firstname as string,
    lastname: row.lastname as string,
    phone: (row.phone as string | null) ?? null,
    momoAccountNumber: (row.momo_account_number as string | null) ?? null,
    bankAccountNumber: (row.bank_account_number as string | null) ?? null,
    isActive: row.is_active as boolean,
    deleted: row.deleted_at !== null && row.deleted_at !== undefined,
  };
}

/**
 * Finds users (not deleted, unless `includeDeleted`) by user id or wallet id, in one query.
 * Ids that are not UUIDs match nothing (and never reach PostgreSQL's uuid cast).
 */
export async function findWalletUsers(
  db: Kysely<any>,
  ids: string[],
  options: { includeDeleted?: boolean } = {},
): Promise<WalletUser[]> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  let query = db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.role_id');
  if (!options.includeDeleted) query = query.where('u.deleted_at', 'is', null);
  const rows = await query
    .where((eb) => eb.or([eb('u.id', 'in', wanted), eb('u.wallet_id', 'in', wanted)]))
    .select([
      'u.id',
      'r.code as role_code',
      'u.wallet_id',
      'u.cluster_id',
      'u.firstname',
      'u.lastname',
      'u.phone',
      'u.momo_account_number',
      'u.bank_account_number',
      'u.is_active',
      'u.deleted_at',
    ])
    .execute();
  return rows.map(toUser);
}

/** The user a user id or wallet id designates, among `users`. */
export function pickUser(users: WalletUser[], idOrWalletId: string): WalletUser | undefined {
  const id = idOrWalletId.toLowerCase();
  return users.find((u) => u.id === id || u.walletId === id);
}

/** The signed-in user as a command actor (401 when the account is gone or inactive). */
export function actorOf(user: WalletUser | undefined): Actor {
  if (!user || !user.isActive || user.deleted) throw new UnauthorizedError('Not authenticated');
  return { userId: user.id, role: user.role, walletId: user.walletId, clusterId: user.clusterId };
}

export async function loadActor(db: Kysely<any>, userId: string): Promise<WalletUser> {
  const [user] = await findWalletUsers(db, [userId]);
  if (!user || user.id !== userId.toLowerCase() || !user.isActive || user.deleted) {
    throw new UnauthorizedError('Not authenticated');
  }
  return user;
}

/** A recipient's account status, as the transfer and financing deciders check it. */
export function recipientStatus(user: WalletUser): RecipientStatus {
  if (user.deleted) return 'DELETED';
  return user.isActive ? 'ACTIVE' : 'INACTIVE';
}

export function requireUser(user: WalletUser | undefined, message: string): WalletUser {
  if (!user) throw new NotFoundError(message);
  return user;
}
