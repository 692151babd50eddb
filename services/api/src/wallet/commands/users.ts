import { sql, type Kysely } from 'kysely';
import { Batcher } from '@filiere/event-store';
import { NotFoundError } from '@filiere/platform';
import type { GuardedUser, SignedInUser } from '../../kernel/actor.js';
import type { Actor, RecipientStatus } from '../domain/index.js';
import type { WalletDb } from '../tables.js';
import { identityUsers } from '../../identity/index.js';

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

interface Lookup {
  ids: string[];
  includeDeleted: boolean;
  resolve(users: WalletUser[]): void;
  reject(error: unknown): void;
}

/** One lookup batcher per pool (or transaction): lookups of one pool go together. */
const batchers = new WeakMap<object, Batcher<Lookup>>();

/**
 * Finds users (not deleted, unless `includeDeleted`) by user id or wallet id. Ids that are not
 * UUIDs match nothing (and never reach PostgreSQL's uuid cast). The lookups asked while one is
 * in flight (or in the same turn of the event loop) go together in the next query, one round
 * trip per batch of financings: each caller still reads rows from a query sent after it asked,
 * so a recipient deactivated or deleted before the call is seen as such.
 */
export function findWalletUsers(
  db: Kysely<WalletDb>,
  ids: string[],
  options: { includeDeleted?: boolean } = {},
): Promise<WalletUser[]> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return Promise.resolve([]);
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new Batcher<Lookup>((lookups) => lookUp(db, lookups), 256, 0);
    batchers.set(db, batcher);
  }
  const includeDeleted = options.includeDeleted ?? false;
  return new Promise((resolve, reject) =>
    batcher.push({ ids: wanted, includeDeleted, resolve, reject }),
  );
}

/** One query for a batch of lookups (deleted users read when one asks for them). */
async function lookUp(db: Kysely<WalletDb>, lookups: Lookup[]): Promise<void> {
  try {
    const ids = [...new Set(lookups.flatMap((l) => l.ids))];
    const { rows } = await sql<Record<string, unknown>>`
      select u.id, r.code as role_code, u.wallet_id, u.cluster_id, u.firstname, u.lastname,
        u.phone, u.momo_account_number, u.bank_account_number, u.is_active, u.deleted_at
      from ${identityUsers().as('u')} join roles r on r.id = u.role_id
      where (u.id = any(${ids}::uuid[]) or u.wallet_id = any(${ids}::uuid[]))
        and (${lookups.some((l) => l.includeDeleted)} or u.deleted_at is null)`.execute(db);
    const users = rows.map(toUser);
    for (const l of lookups) {
      const mine = new Set(l.ids);
      l.resolve(
        users.filter(
          (u) =>
            (l.includeDeleted || !u.deleted) &&
            // PostgreSQL writes uuids in lower case, as `wanted` holds them.
            (mine.has(u.id) || mine.has(u.walletId)),
        ),
      );
    }
  } catch (error) {
    for (const l of lookups) l.reject(error);
  }
}

/** A user the directory answered, as the wallet reads it. */
export function walletUserOf({ user, deleted }: GuardedUser): WalletUser {
  return {
    id: user.id,
    role: user.role_code,
    walletId: user.wallet_id,
    clusterId: user.cluster_id,
    firstname: user.firstname,
    lastname: user.lastname,
    phone: user.phone,
    momoAccountNumber: user.momo_account_number,
    bankAccountNumber: user.bank_account_number,
    isActive: user.is_active,
    deleted,
  };
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
