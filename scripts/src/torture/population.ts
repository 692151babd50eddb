import { createHmac } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '@filiere/api';

export type TortureRole =
  | 'ROLE_SUPER_ADMIN'
  | 'ROLE_INDUSTRIAL'
  | 'ROLE_GROWER'
  | 'ROLE_INPUT_PROVIDER'
  | 'ROLE_SFD'
  | 'ROLE_FARMER_ORGANIZATION';

/** Role ids fixed by the identity migration (services/api/src/identity/roles.ts). */
const ROLE_IDS: Record<TortureRole, number> = {
  ROLE_SUPER_ADMIN: 1,
  ROLE_GROWER: 3,
  ROLE_INDUSTRIAL: 5,
  ROLE_INPUT_PROVIDER: 9,
  ROLE_SFD: 12,
  ROLE_FARMER_ORGANIZATION: 10,
};

/** The fertilizer the seasons' workload uses: NPK, seeded by the actors' migration. */
export const TORTURE_FERTILIZER_ID = 1;

export interface TortureUser {
  index: number;
  id: string;
  walletId: string;
  role: TortureRole;
  /** 0 or 1; the super admin has none. */
  cluster: number | null;
  token: string;
  /** The phone its SMS go to. */
  phone: string;
  /** A grower's actor id (`growers` row, with its user in its cluster). */
  growerId?: string;
  /** The grower's plot (CAYENNE_LISSE), the product of its delivery contracts. */
  plotId?: string;
}

export interface Population {
  superAdmin: TortureUser;
  /** Aggregators and growers, the clients of the workload. */
  members: TortureUser[];
  /**
   * Input providers (ROLE_INPUT_PROVIDER with an `input_suppliers` row selling NPK): clients
   * of the workload too, who confirm deliveries by code. Not wallet-transfer candidates.
   */
  providers: TortureUser[];
  /**
   * The SFD (ROLE_SFD): it finances growers (SOCIAL requests it accepts, debts that delivery
   * contract runs repay to it). A client of the workload, not a transfer candidate.
   */
  sfd: TortureUser;
  /**
   * One cooperative per cluster (ROLE_FARMER_ORGANIZATION with a `cooperatives` row), every
   * grower of the cluster its member: it confirms their delivery contracts with the code each
   * grower received by SMS. Index = cluster.
   */
  cooperatives: TortureUser[];
  /**
   * The offline client's own input provider: assigned like the others but never an online
   * client, so the wrong codes the online providers try (guess limits per caller, 429) never
   * fall on the queue it replays.
   */
  offlineProvider: TortureUser;
  /** Filled by `setupSeasons` (seasons.ts): the season and each cluster's confirmed link. */
  season?: { seasonId: number; links: { cluster: number; aggregatorId: string; linkId: number }[] };
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
  sizes: { aggregators: number; growers: number; providers?: number },
): Promise<Population> {
  const passwordHash = await hash('Torture#2026', { algorithm: 2 });
  const clusters: string[] = [];
  // Aggregators belong to an organization, as the actors' screens make them.
  const organization = async (
    denomination: string,
    type: 'INDUSTRIAL' | 'PROVIDER' | 'COOPERATIVE',
  ) =>
    (
      await db
        .insertInto('organizations')
        .values({ denomination, organization_type: type })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as string;
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
    const phone = `+22901970${String(10000 + n).slice(-5)}`;
    const email = `torture.${n}@test.filiere.bj`;
    const row = await db
      .insertInto('users')
      .values({
        firstname: `Client${n}`,
        lastname:
          role === 'ROLE_GROWER'
            ? 'Producteur'
            : role === 'ROLE_SFD'
              ? 'SFD'
              : role === 'ROLE_FARMER_ORGANIZATION'
                ? 'Coopérative'
                : 'Agrégateur',
        email,
        username: email,
        phone,
        momo_account_number: phone,
        bank_account_number: `BJ06601001000000${String(10000000000 + n).slice(-11)}`,
        password_hash: passwordHash,
        role_id: ROLE_IDS[role],
        cluster_id: cluster === null ? null : clusters[cluster],
        organization_id:
          role === 'ROLE_INDUSTRIAL' ||
          role === 'ROLE_INPUT_PROVIDER' ||
          role === 'ROLE_FARMER_ORGANIZATION'
            ? await organization(
                `Torture ${role} ${n}`,
                role === 'ROLE_INDUSTRIAL'
                  ? 'INDUSTRIAL'
                  : role === 'ROLE_INPUT_PROVIDER'
                    ? 'PROVIDER'
                    : 'COOPERATIVE',
              )
            : null,
        is_active: true,
      })
      .returning(['id', 'wallet_id'])
      .executeTakeFirstOrThrow();
    return {
      index: n,
      phone,
      id: row.id as string,
      walletId: row.wallet_id as string,
      role,
      cluster,
      token: signAccessToken(secret, { sub: row.id as string, role }),
    };
  };
  const superAdmin = await make('ROLE_SUPER_ADMIN', null);
  const members: TortureUser[] = [];
  const cooperatives: TortureUser[] = [];
  for (const cluster of [0, 1]) {
    // The cluster's cooperative, as the actors' screens register one (its organisation, its row).
    const cooperative = await make('ROLE_FARMER_ORGANIZATION', cluster);
    const { organization_id: cooperativeOrg } = await db
      .selectFrom('users')
      .select('organization_id')
      .where('id', '=', cooperative.id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('cooperatives')
      .values({
        organization_id: cooperativeOrg as string,
        user_id: cooperative.id,
        cluster_id: clusters[cluster]!,
        ifu: String(3202700000000 + cooperative.index),
      })
      .execute();
    cooperatives.push(cooperative);
    for (let i = 0; i < sizes.aggregators; i++)
      members.push(await make('ROLE_INDUSTRIAL', cluster));
    for (let i = 0; i < sizes.growers; i++) {
      const grower = await make('ROLE_GROWER', cluster);
      // The grower as an actor of its cluster (the actors' own test fixtures insert it so).
      const row = await db
        .insertInto('growers')
        .values({
          user_id: grower.id,
          cluster_id: clusters[cluster]!,
          cooperative_id: cooperativeOrg as string,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'A098-001',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const plot = await db
        .insertInto('plots')
        .values({
          grower_id: row.id as string,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'A098-001',
          name: `Parcelle ${grower.index}`,
          area_sown: '2',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      members.push({ ...grower, growerId: row.id as string, plotId: plot.id as string });
    }
  }
  const providers: TortureUser[] = [];
  for (let i = 0; i < (sizes.providers ?? 2) + 1; i++) {
    const provider = await make('ROLE_INPUT_PROVIDER', null);
    const user = await db
      .selectFrom('users')
      .select('organization_id')
      .where('id', '=', provider.id)
      .executeTakeFirstOrThrow();
    const supplier = await db
      .insertInto('input_suppliers')
      .values({
        organization_id: user.organization_id as string,
        user_id: provider.id,
        rccm: `RB/COT/26 B ${10000 + provider.index}`,
        ifu: String(3202600000000 + provider.index),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('supplier_fertilizers')
      .values({ supplier_id: supplier.id, fertilizer_id: TORTURE_FERTILIZER_ID })
      .execute();
    providers.push(provider);
  }
  const offlineProvider = providers.pop()!;
  const sfd = await make('ROLE_SFD', null);
  return { superAdmin, members, providers, sfd, cooperatives, offlineProvider };
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
