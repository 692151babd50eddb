import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { SignedInUser } from '../kernel/actor.js';
import type { OrganizationType, RoleCode } from '../kernel/roles.js';
import type { UserDto } from './schemas.js';
import type { IdentityTables } from './tables.js';
import type { TokenKind } from './tokens.js';

/** A user as read from the database, with its role and organisation. */
/** A user as the guard loads it (kernel/actor.ts): identity's row of `users` + its role. */
export type UserRow = SignedInUser;

/** A user row, deleted or not, with its read guard's version (bigint, as text). */
export type GuardedRow = UserRow & { deleted_at: Date | null; guard_version: string | number };

export interface NewUser {
  firstname: string;
  lastname: string;
  email: string | null;
  username: string;
  phone: string | null;
  role_id: number;
  organization_id?: string | null;
  cluster_id?: string | null;
  momo_account_number?: string | null;
  bank_account_number?: string | null;
  nip?: string | null;
  bank_name?: string | null;
  pin_hash?: string | null;
  is_active: boolean;
  self_registered: boolean;
  password_hash?: string | null;
}

export interface UserFilter {
  clusterId?: string;
  organizationId?: string;
  roles?: RoleCode[];
  excludeRoles?: RoleCode[];
  q?: string;
  activeOnly?: boolean;
  excludeId?: string;
}

export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    username: row.username,
    phone: row.phone,
    nip: row.nip,
    role: { id: row.role_id, name: row.role_name, code: row.role_code },
    roleId: row.role_id,
    organization:
      row.organization_id && row.denomination && row.organization_type
        ? {
            id: row.organization_id,
            denomination: row.denomination,
            organizationType: row.organization_type,
          }
        : null,
    organizationId: row.organization_id,
    walletId: row.wallet_id,
    clusterId: row.cluster_id,
    momoAccountNumber: row.momo_account_number,
    bankAccountNumber: row.bank_account_number,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
  };
}

/** Column values that revoke every access token of the user (see migration 0302). */
export const REVOKE_TOKENS = { token_version: sql`token_version + 1` } as const;

/** Escapes LIKE wildcards so a search for "50%" means the characters. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class IdentityRepository<DB extends IdentityTables = IdentityTables> {
  /** Identity's own tables (the pool is the caller's, whatever else it holds). */
  private readonly db: Kysely<IdentityTables>;

  constructor(db: Kysely<DB>) {
    this.db = narrowDb<IdentityTables>()(db);
  }

  /** Runs `fn` with a repository bound to one transaction. */
  transaction<T>(fn: (repo: IdentityRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new IdentityRepository(trx)));
  }

  private users(): SelectQueryBuilder<any, any, UserRow> {
    return this.everyUser().where('u.deleted_at', 'is', null);
  }

  /** Users with their role and organisation, deleted ones included. */
  private everyUser(): SelectQueryBuilder<any, any, UserRow> {
    return this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .leftJoin('organizations as o', 'o.id', 'u.organization_id')
      .select([
        'u.id',
        'u.firstname',
        'u.lastname',
        'u.email',
        'u.username',
        'u.phone',
        'u.nip',
        sql<boolean>`u.password_hash is not null`.as('has_password'),
        'u.role_id',
        'r.code as role_code',
        'r.name as role_name',
        'u.organization_id',
        'o.denomination',
        'o.organization_type',
        'u.cluster_id',
        'u.wallet_id',
        'u.momo_account_number',
        'u.bank_account_number',
        'u.is_active',
        'u.self_registered',
        'u.token_version',
        'u.created_at',
      ]) as any;
  }

  /**
   * Users by user id or wallet id (UUIDs), deleted ones too, each with the version of its read
   * guard (`user:<id>`, bumped by every change of its row): the two from one snapshot, so the
   * version is the row's (user-directory.ts).
   */
  findGuarded(ids: readonly string[]): Promise<GuardedRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.everyUser()
      .select([
        'u.deleted_at',
        sql<string>`coalesce((select g.version from read_guards g where g.key = 'user:' || u.id::text), 0)`.as(
          'guard_version',
        ),
      ])
      .where(
        sql<boolean>`(u.id = any(${[...ids]}::uuid[]) or u.wallet_id = any(${[...ids]}::uuid[]))`,
      )
      .execute() as Promise<GuardedRow[]>;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.users().where('u.id', '=', id).executeTakeFirst();
  }

  /**
   * The users (not deleted) of these ids (UUIDs), in one query (the auth guard's batched
   * loader): one array parameter, so every batch size is the same statement (an `in` list made
   * a statement of each size, ~15 of them in pg_stat_statements over a benchmark run).
   */
  findByIds(ids: readonly string[]): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.users()
      .where(sql<boolean>`u.id = any(${[...ids]}::uuid[])`)
      .execute();
  }

  /** The user, its row locked until the transaction ends (use on a transaction's repository). */
  findByIdForUpdate(id: string): Promise<UserRow | undefined> {
    return this.users()
      .where('u.id', '=', id)
      .forUpdate('u' as never)
      .executeTakeFirst();
  }

  /** Whether a user with this id was ever created (deleted ones included). */
  async everExisted(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The organisation of a user ever created (deleted ones included); undefined: no such id. */
  async organizationOfAny(id: string): Promise<{ organizationId: string | null } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('organization_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { organizationId: row.organization_id ?? null };
  }

  /** Names and e-mails of users, deleted ones included (audit trails name former users too). */
  async namesOf(
    ids: string[],
  ): Promise<
    Map<string, { id: string; firstname: string; lastname: string; email: string | null }>
  > {
    const names = new Map<
      string,
      { id: string; firstname: string; lastname: string; email: string | null }
    >();
    if (!ids.length) return names;
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'firstname', 'lastname', 'email'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) names.set(row.id as string, row as never);
    return names;
  }

  /** For each id of a user that still exists: whether it is active and its token version. */
  async accessStates(
    ids: string[],
  ): Promise<Map<string, { isActive: boolean; tokenVersion: number }>> {
    const states = new Map<string, { isActive: boolean; tokenVersion: number }>();
    if (!ids.length) return states;
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'is_active', 'token_version'])
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    for (const row of rows) {
      states.set(row.id as string, {
        isActive: row.is_active as boolean,
        tokenVersion: row.token_version as number,
      });
    }
    return states;
  }

  /** The user's password hash (null without a password): read only to check a password. */
  async passwordHashOf(id: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.password_hash ?? null;
  }

  /** The user of this e-mail with its password hash, in one query: for sign-in only. */
  findForSignIn(email: string): Promise<(UserRow & { password_hash: string | null }) | undefined> {
    return this.users()
      .select('u.password_hash' as never)
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .executeTakeFirst() as Promise<(UserRow & { password_hash: string | null }) | undefined>;
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.users()
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async list(
    filter: UserFilter,
    page: number,
    limit: number,
  ): Promise<{ rows: UserRow[]; count: number }> {
    let query = this.users();
    if (filter.clusterId) query = query.where('u.cluster_id', '=', filter.clusterId);
    if (filter.organizationId) {
      query = query.where('u.organization_id', '=', filter.organizationId);
    }
    if (filter.roles?.length) query = query.where('r.code', 'in', filter.roles);
    if (filter.excludeRoles?.length) query = query.where('r.code', 'not in', filter.excludeRoles);
    if (filter.activeOnly) query = query.where('u.is_active', '=', true);
    if (filter.excludeId) query = query.where('u.id', '!=', filter.excludeId);
    if (filter.q) {
      const pattern = likePattern(filter.q);
      query = query.where((eb) =>
        eb.or([
          eb('u.firstname', 'ilike', pattern),
          eb('u.lastname', 'ilike', pattern),
          eb('u.email', 'ilike', pattern),
          eb(sql`coalesce(o.denomination, '')`, 'ilike', pattern),
        ]),
      );
    }
    const counted = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    let paged = query.orderBy('u.created_at', 'desc').orderBy('u.id');
    if (limit !== -1) paged = paged.limit(limit).offset((page - 1) * limit);
    return { rows: await paged.execute(), count: Number(counted.count) };
  }

  async insert(user: NewUser): Promise<string> {
    const row = await this.db
      .insertInto('users')
      .values(user)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id as string;
  }

  async update(id: string, values: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  async softDelete(id: string): Promise<void> {
    await this.update(id, { deleted_at: sql`now()`, is_active: false, ...REVOKE_TOKENS });
  }

  async countInactive(role: RoleCode): Promise<number> {
    const row = await this.users()
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('r.code', '=', role)
      .where('u.is_active', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insertOrganization(
    denomination: string,
    organizationType: OrganizationType,
    ifu: string | null,
  ): Promise<string> {
    const row = await this.db
      .insertInto('organizations')
      .values({ denomination, organization_type: organizationType, ifu })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id as string;
  }

  organizationExists(id: string): Promise<unknown> {
    return this.db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst();
  }

  clusterExists(id: string): Promise<unknown> {
    return this.db.selectFrom('clusters').select('id').where('id', '=', id).executeTakeFirst();
  }

  listRoles(): Promise<Array<{ id: number; name: string; code: RoleCode }>> {
    return this.db.selectFrom('roles').select(['id', 'name', 'code']).orderBy('id').execute();
  }

  listClusters(): Promise<Array<{ id: string; label: string }>> {
    return this.db.selectFrom('clusters').select(['id', 'label']).orderBy('label').execute();
  }

  listOrganizations(): Promise<
    Array<{
      id: string;
      denomination: string;
      organizationType: OrganizationType;
      ifu: string | null;
    }>
  > {
    return this.db
      .selectFrom('organizations')
      .select(['id', 'denomination', 'organization_type as organizationType', 'ifu'])
      .orderBy('denomination')
      .execute();
  }

  async insertToken(userId: string, kind: TokenKind, hash: string, ttlMs: number): Promise<void> {
    await this.db
      .insertInto('user_tokens')
      .values({
        user_id: userId,
        kind,
        token_hash: hash,
        expires_at: new Date(Date.now() + ttlMs),
      })
      .execute();
  }

  /** Spends every unused token of that kind (a new mail replaces older links). */
  async revokeTokens(userId: string, kind: TokenKind): Promise<void> {
    await this.db
      .updateTable('user_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .execute();
  }

  async hasPendingToken(userId: string, kind: TokenKind): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Whether the token is of this kind, unused, unexpired and `email`'s user's (deleted users
   * excluded), without spending it: the set-password pages ask before showing their form.
   */
  async isTokenValid(hash: string, kind: TokenKind, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select('t.id')
      .where('t.token_hash', '=', hash)
      .where('t.kind', '=', kind)
      .where('t.used_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .where('u.deleted_at', 'is', null)
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Marks the token used, atomically, if it is of this kind, unused, unexpired
   * and belongs to `email`'s user; answers the user id, or undefined.
   */
  async consumeToken(hash: string, kind: TokenKind, email: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('user_tokens as t')
      .set({ used_at: sql`now()` })
      .from('users as u')
      .whereRef('u.id', '=', 't.user_id')
      .where('t.token_hash', '=', hash)
      .where('t.kind', '=', kind)
      .where('t.used_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .where('u.deleted_at', 'is', null)
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .returning('t.user_id')
      .executeTakeFirst();
    return row?.user_id as string | undefined;
  }
}
