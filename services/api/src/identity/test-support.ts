import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { RoleCode } from '../http/auth.js';
import { hashPassword } from './password.js';
import { roleIdOf } from './roles.js';
import type { IdentityTables } from './tables.js';
import type { OrganizationType } from '../kernel/roles.js';

export const TEST_PASSWORD = 'Secret#2026';

let counter = 0;
let cachedHash: Promise<string> | undefined;

/** Inserts a user directly (tests only); active with TEST_PASSWORD unless told otherwise. */
export async function seedUser<DB extends IdentityTables>(
  db: Kysely<DB>,
  role: RoleCode,
  options: {
    clusterId?: string | null;
    organizationId?: string | null;
    active?: boolean;
    email?: string;
  } = {},
): Promise<{ id: string; email: string }> {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const n = ++counter;
  const email = options.email ?? `${role.toLowerCase()}.${n}.${Date.now()}@test.bj`;
  const row = await narrowDb<IdentityTables>()(db)
    .insertInto('users')
    .values({
      firstname: `Prénom${n}`,
      lastname: `Nom${n}`,
      email,
      username: email,
      // Distinct per user: a phone identifies a member (unique index of migration 0310).
      phone: `+2290140${String(n % 1_000_000).padStart(6, '0')}`,
      password_hash: await cachedHash,
      role_id: roleIdOf(role),
      cluster_id: options.clusterId ?? null,
      organization_id: options.organizationId ?? null,
      is_active: options.active ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

export async function seedCluster<DB extends IdentityTables>(
  db: Kysely<DB>,
  label: string,
): Promise<string> {
  const row = await narrowDb<IdentityTables>()(db)
    .insertInto('clusters')
    .values({ label })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function seedOrganization<DB extends IdentityTables>(
  db: Kysely<DB>,
  denomination: string,
  organizationType: OrganizationType = 'INDUSTRIAL',
): Promise<string> {
  const row = await narrowDb<IdentityTables>()(db)
    .insertInto('organizations')
    .values({ denomination, organization_type: organizationType })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function bearer(app: FastifyInstance, user: { id: string }, role: RoleCode) {
  return { authorization: `Bearer ${app.jwt.sign({ sub: user.id, role })}` };
}
