import type { Kysely } from 'kysely';
import { Batcher } from '@filiere/event-store';
import type { GuardedUser, UserDirectory } from '../kernel/actor.js';
import { IdentityRepository, type GuardedRow } from './repository.js';
import type { IdentityTables } from './tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const directories = new WeakMap<object, UserDirectory>();

interface Lookup {
  id: string;
  resolve(user: GuardedUser | undefined): void;
  reject(error: unknown): void;
}

/**
 * The directory of users of this pool, one per process (the auth guard and the wallet share
 * it): at most `maxEntries` users, least recently used dropped first. A lookup it cannot
 * answer, or asked `fresh`, is read with those asked meanwhile in one query sent after it was
 * asked (as the guard's loader); a user not found is not remembered. Nothing here decides
 * whether an entry is current: the append does, with the guard (kernel/actor.ts).
 */
export function userDirectory<DB extends Pick<IdentityTables, 'users' | 'roles' | 'organizations'>>(
  db: Kysely<DB>,
  maxEntries = 10_000,
): UserDirectory {
  let directory = directories.get(db);
  if (!directory) {
    // Only users, roles and organizations are read (findGuarded).
    const repository = new IdentityRepository(db as unknown as Kysely<IdentityTables>);
    directory = new CachedDirectory(repository, maxEntries);
    directories.set(db, directory);
  }
  return directory;
}

class CachedDirectory implements UserDirectory {
  /** By user id; `byWallet` maps a wallet id to its user id. */
  private readonly users = new Map<string, GuardedUser>();
  private readonly byWallet = new Map<string, string>();
  private readonly batcher: Batcher<Lookup>;

  constructor(
    private readonly repository: IdentityRepository,
    private readonly maxEntries: number,
  ) {
    this.batcher = new Batcher<Lookup>((lookups) => this.read(lookups), 256, 0);
  }

  find(idOrWalletId: string, fresh = false): Promise<GuardedUser | undefined> {
    const id = idOrWalletId.toLowerCase();
    if (!UUID.test(id)) return Promise.resolve(undefined);
    if (!fresh) {
      const known = this.users.get(this.byWallet.get(id) ?? id);
      if (known) {
        this.users.delete(known.user.id);
        this.users.set(known.user.id, known);
        return Promise.resolve(known);
      }
    }
    return new Promise((resolve, reject) => this.batcher.push({ id, resolve, reject }));
  }

  private async read(lookups: Lookup[]): Promise<void> {
    let rows: GuardedRow[];
    try {
      rows = await this.repository.findGuarded([...new Set(lookups.map((l) => l.id))]);
    } catch (error) {
      for (const l of lookups) l.reject(error);
      return;
    }
    const found = new Map<string, GuardedUser>();
    for (const row of rows) {
      const user = this.remember(row);
      found.set(user.user.id, user);
      found.set(user.user.wallet_id, user);
    }
    for (const l of lookups) l.resolve(found.get(l.id));
  }

  /** Keeps the row read unless a newer version of it is known already. */
  private remember(row: GuardedRow): GuardedUser {
    const { deleted_at, guard_version, ...user } = row;
    const id = user.id.toLowerCase();
    const read: GuardedUser = Object.freeze({
      user: Object.freeze({ ...user, id, wallet_id: user.wallet_id.toLowerCase() }),
      deleted: deleted_at !== null,
      guard: Object.freeze({ key: `user:${id}`, version: Number(guard_version) }),
    });
    const known = this.users.get(id);
    if (known && known.guard.version > read.guard.version) return known;
    this.users.delete(id);
    this.users.set(id, read);
    this.byWallet.set(read.user.wallet_id, id);
    if (this.users.size > this.maxEntries) {
      const oldest = this.users.values().next().value!;
      this.users.delete(oldest.user.id);
      this.byWallet.delete(oldest.user.wallet_id);
    }
    return read;
  }
}
