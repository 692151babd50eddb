import { createHmac } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '@filiere/api';

export type TortureRole = 'ROLE_SUPER_ADMIN' | 'ROLE_INDUSTRIAL' | 'ROLE_GROWER';

/** Role ids fixed by the identity migration (services/api/src/identity/roles.ts). */
const ROLE_IDS: Record<TortureRole, number> = {
  ROLE_SUPER_ADMIN: 1,
  ROLE_GROWER: 3,
  ROLE_INDUSTRIAL: 5,
};

export interface TortureUser {
  index: number;
  id: string;
  walletId: string;
  role: TortureRole;
  /** 0 or 1; the super admin has none. */
  cluster: number | null;
  token: string;
}

export interface Population {
  superAdmin: TortureUser;
  /** Aggregators and growers, the clients of the workload. */
  members: TortureUser[];
}

/**
 * Users made as the demo data makes them (rows in `users`, one argon2 hash), in two
 * clusters of `aggregators` aggregators (ROLE_INDUSTRIAL) and `growers` growers each, plus a
 * super admin. Each gets an access token signed as `/api/auth` signs them (HS256, sub +
 * role, 12 h), with the API processes' JWT secret.
 */
export async function createPopulation(
  db: Kysely<Database>,
  secret: string,
  sizes: { aggregators: number; growers: number },
): Promise<Population> {
  const passwordHash = await hash('Torture#2026', { algorithm: 2 });
  const clusters: string[] = [];
  for (const label of ['Cluster Torture A', 'Cluster Torture B']) {
    const row = await db
      .insertInto('clusters')
      .values({ label })
      .returning('id')
      .executeTakeFirstOrThrow();
    clusters.push(row.id as string);
  }
  let index = 0;
  const make = async (role: TortureRole, cluster: number | null): Promise<TortureUser> => {
    const n = index++;
    const email = `torture.${n}@test.filiere.bj`;
    const row = await db
      .insertInto('users')
      .values({
        firstname: `Client${n}`,
        lastname: role === 'ROLE_GROWER' ? 'Producteur' : 'Agrégateur',
        email,
        username: email,
        phone: `+22901970${String(10000 + n).slice(-5)}`,
        momo_account_number: `+22901970${String(10000 + n).slice(-5)}`,
        bank_account_number: `BJ06601001000000${String(10000000000 + n).slice(-11)}`,
        password_hash: passwordHash,
        role_id: ROLE_IDS[role],
        cluster_id: cluster === null ? null : clusters[cluster],
        is_active: true,
      })
      .returning(['id', 'wallet_id'])
      .executeTakeFirstOrThrow();
    return {
      index: n,
      id: row.id as string,
      walletId: row.wallet_id as string,
      role,
      cluster,
      token: signAccessToken(secret, { sub: row.id as string, role }),
    };
  };
  const superAdmin = await make('ROLE_SUPER_ADMIN', null);
  const members: TortureUser[] = [];
  for (const cluster of [0, 1]) {
    for (let i = 0; i < sizes.aggregators; i++)
      members.push(await make('ROLE_INDUSTRIAL', cluster));
    for (let i = 0; i < sizes.growers; i++) members.push(await make('ROLE_GROWER', cluster));
  }
  return { superAdmin, members };
}

/** An HS256 JWT as @fastify/jwt signs the API's access tokens. */
export function signAccessToken(
  secret: string,
  claims: { sub: string; role: string },
  ttlSeconds = 12 * 3600,
): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims, iat: now, exp: now + ttlSeconds })}`;
  const signature = createHmac('sha256', secret).update(head).digest('base64url');
  return `${head}.${signature}`;
}
