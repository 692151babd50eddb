import { sql, type Kysely } from 'kysely';
import { ORGANIZATION_TYPES, ROLES } from '../roles.js';

/**
 * Identity tables: roles (seeded), organisations, clusters, users (each with its
 * wallet id), single-use hashed tokens, and the mail outbox of the embedded mode.
 * Users are soft-deleted so that ledger references to them stay valid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('roles')
    .values(ROLES.map((r) => ({ ...r })))
    .execute();

  const types = sql.join(ORGANIZATION_TYPES.map((t) => sql.lit(t)));
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('denomination', 'text', (c) => c.notNull())
    .addColumn('organization_type', 'text', (c) =>
      c.notNull().check(sql`organization_type in (${types})`),
    )
    .addColumn('ifu', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('clusters')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('label', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('firstname', 'text', (c) => c.notNull())
    .addColumn('lastname', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id'))
    .addColumn('cluster_id', 'uuid', (c) => c.references('clusters.id'))
    .addColumn('wallet_id', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('momo_account_number', 'text')
    .addColumn('bank_account_number', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('self_registered', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create unique index users_email_unique on users (lower(email)) where deleted_at is null`.execute(
    db,
  );
  await db.schema.createIndex('users_cluster_idx').on('users').column('cluster_id').execute();
  await db.schema.createIndex('users_role_idx').on('users').column('role_id').execute();

  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('INVITATION', 'RESET')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('user_tokens_user_idx').on('user_tokens').column('user_id').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['outbox', 'user_tokens', 'users', 'clusters', 'organizations', 'roles']) {
    await db.schema.dropTable(table).execute();
  }
}
