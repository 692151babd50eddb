import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { IdentityTables } from './tables.js';

/**
 * Builds queries, never runs one: a view below is compiled into the query of the context that
 * uses it, and runs on that context's pool or transaction.
 */
const builder = new Kysely<Pick<IdentityTables, 'users'>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** What other contexts may read of a user: no password or PIN hash, no token version. */
const USER_COLUMNS = [
  'id',
  'firstname',
  'lastname',
  'email',
  'username',
  'phone',
  'role_id',
  'organization_id',
  'cluster_id',
  'wallet_id',
  'momo_account_number',
  'bank_account_number',
  'bank_name',
  'nip',
  'is_active',
  'self_registered',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

/**
 * Identity's users as the other contexts read them: a derived table of the columns they may
 * see, to select from or join under an alias (`.innerJoin(identityUsers().as('u'), 'u.id',
 * 'g.user_id')`, `.selectFrom(identityUsers().as('users'))`). PostgreSQL pulls a plain
 * subquery up into the query around it, so the plan is the one a join on the table has. A
 * projector rebuilding into another schema names the live one (`identityUsers('public')`).
 */
export function identityUsers(schema?: string) {
  const from = schema ? builder.withSchema(schema) : builder;
  return from.selectFrom('users').select(USER_COLUMNS);
}
