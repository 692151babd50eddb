import type { Kysely } from 'kysely';
import { NotFoundError } from '@filiere/platform';
import type { SignedInUser } from '../../kernel/actor.js';
import type { Actor, RecipientStatus } from '../domain/index.js';
import type { WalletDb } from '../tables.js';

/**
 * What the wallet needs to know about ANOTHER user (a recipient, a target), from the identity
 * tables. The signed-in user is never looked up here: the auth guard loaded it already
 * (`request.actor`), and `actorOf` makes the deciders' `Actor` of it.
 */
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
  db: Kysely<WalletDb>,
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

/**
 * The deciders' `Actor` of the signed-in user the auth guard loaded (`request.actor`): the one
 * place the wallet builds it. The guard already refused a deleted, inactive or revoked account.
 */
export function actorOf(user: SignedInUser): Actor {
  return {
    userId: user.id,
    role: user.role_code,
    walletId: user.wallet_id,
    clusterId: user.cluster_id,
  };
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
