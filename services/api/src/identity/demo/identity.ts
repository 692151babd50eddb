import type { Kysely } from 'kysely';
import {
  demoAccounts,
  DEMO_COOPERATIVE_EMAIL,
  DEMO_GROWER_EMAIL,
  DEMO_PASSWORD,
} from './accounts.js';
import type { DemoStep } from '../../kernel/module.js';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../tables.js';
import { hashPassword } from '../password.js';
import type { RoleCode } from '../../kernel/roles.js';

/** Fixed role ids of the identity migration (services/api/src/identity/roles.ts). */
const ROLE_IDS: Record<RoleCode, number> = {
  ROLE_SUPER_ADMIN: 1,
  ROLE_ADMIN: 2,
  ROLE_GROWER: 3,
  ROLE_CARRIER: 4,
  ROLE_INDUSTRIAL: 5,
  ROLE_SECRETARY: 6,
  ROLE_ACCOUNTING: 7,
  ROLE_DIRECTOR: 8,
  ROLE_INPUT_PROVIDER: 9,
  ROLE_FARMER_ORGANIZATION: 10,
  ROLE_CLUSTER_MANAGER: 11,
  ROLE_SFD: 12,
};

export const DEMO_CLUSTER = 'Cluster Allada';

/** The demo organisations, keyed by what the accounts below refer to. */
const ORGANIZATIONS = {
  industrial: {
    denomination: 'Ananas Export SA',
    organization_type: 'INDUSTRIAL',
    ifu: '3201900012345',
  },
  provider: {
    denomination: 'Intrants du Sud SARL',
    organization_type: 'PROVIDER',
    ifu: '3201900054321',
  },
  microfinance: {
    denomination: 'Alafia Microfinance',
    organization_type: 'MICROFINANCE',
    ifu: null,
  },
  bank: { denomination: 'Banque Atlantique Bénin', organization_type: 'BANK', ifu: null },
  payment: { denomination: 'Paiement sandbox', organization_type: 'PAYMENT_PROVIDER', ifu: null },
  second: {
    denomination: 'Zou Ananas Industrie',
    organization_type: 'INDUSTRIAL',
    ifu: '3201900077777',
  },
  newcomer: {
    denomination: 'Ananas Nouveau SARL',
    organization_type: 'INDUSTRIAL',
    ifu: '3201900099999',
  },
} as const;

/** Per demo e-mail: names, phone, organisation, and whether it belongs to the Allada cluster. */
const PROFILES: Record<
  string,
  {
    firstname: string;
    lastname: string;
    phone: string;
    org?: keyof typeof ORGANIZATIONS;
    inCluster?: boolean;
    /** National identification number (growers and aggregators). */
    nip?: string;
  }
> = {
  'superadmin@demo.filiere.bj': { firstname: 'Sèna', lastname: 'Adjovi', phone: '+2290197000001' },
  'admin@demo.filiere.bj': { firstname: 'Rodrigue', lastname: 'Houénou', phone: '+2290197000002' },
  'agregateur@demo.filiere.bj': {
    firstname: 'Awa',
    lastname: 'Dossou',
    phone: '+2290197000003',
    org: 'industrial',
    inCluster: true,
    nip: '3201900123',
  },
  'fournisseur@demo.filiere.bj': {
    firstname: 'Koffi',
    lastname: 'Agossou',
    phone: '+2290196000004',
    org: 'provider',
  },
  'gestionnaire@demo.filiere.bj': {
    firstname: 'Fidèle',
    lastname: 'Zinsou',
    phone: '+2290166000006',
    inCluster: true,
  },
  'sfd@demo.filiere.bj': {
    firstname: 'Grâce',
    lastname: 'Kpadonou',
    phone: '+2290161000007',
    org: 'microfinance',
    // The SFD lends to the Allada cluster's growers: its settings and staff are that cluster's.
    inCluster: true,
  },
  // No organisation, no cluster: the platform's auditor, who reads every wallet.
  'auditeur@demo.filiere.bj': {
    firstname: 'Inès',
    lastname: 'Auditrice',
    phone: '+2290197000077',
  },
};

/** The demo accounts the actors' demo registers (they stand for a cooperative and a grower). */
const REGISTERED_BY_ACTORS = new Set<string>([DEMO_COOPERATIVE_EMAIL, DEMO_GROWER_EMAIL]);

/**
 * Gives a demo account registered through a staff route (a cooperative's representative, a
 * grower) the demo password, as if it had set it from its invitation: the demo signs in with it.
 */
export async function giveDemoPassword<DB extends IdentityTables>(
  db: Kysely<DB>,
  email: string,
): Promise<void> {
  const updated = await narrowDb<IdentityTables>()(db)
    .updateTable('users')
    .set({ password_hash: await hashPassword(DEMO_PASSWORD) })
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new Error(`demo user ${email} not found`);
}

/**
 * Gives a demo user a bank payout account when it has none (a later step's scenario, e.g. the
 * wallet's refused bank withdrawal), as if staff had approved it.
 */
export async function giveDemoBankAccount<DB extends IdentityTables>(
  db: Kysely<DB>,
  userId: string,
  bankAccountNumber: string,
): Promise<void> {
  await narrowDb<IdentityTables>()(db)
    .updateTable('users')
    .set({ bank_account_number: bankAccountNumber })
    .where('id', '=', userId)
    .where('bank_account_number', 'is', null)
    .execute();
}

/** A self-registered aggregator still waiting for activation (the counter shows 1). */
export const DEMO_PENDING_AGGREGATOR = 'nouvel.agregateur@demo.filiere.bj';

/**
 * A second, active aggregator outside the Allada cluster (same demo password): the one the
 * first aggregator funds ('Financer un agrégateur'), so a financing shows in both lists.
 */
export const DEMO_SECOND_AGGREGATOR = 'agregateur.zou@demo.filiere.bj';

export const identityDemoStep: DemoStep = {
  name: 'identity',
  async run({ db, logger }) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db.transaction().execute(async (trx) => {
      const orgIds: Record<string, string> = {};
      for (const [key, org] of Object.entries(ORGANIZATIONS)) {
        const row = await trx
          .insertInto('organizations')
          .values(org)
          .returning('id')
          .executeTakeFirstOrThrow();
        orgIds[key] = row.id;
      }
      const cluster = await trx
        .insertInto('clusters')
        .values({ label: DEMO_CLUSTER })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const account of demoAccounts) {
        if (REGISTERED_BY_ACTORS.has(account.email)) continue;
        const profile = PROFILES[account.email]!;
        await trx
          .insertInto('users')
          .values({
            firstname: profile.firstname,
            lastname: profile.lastname,
            email: account.email,
            username: account.email,
            phone: profile.phone,
            password_hash: passwordHash,
            role_id: ROLE_IDS[account.role],
            organization_id: profile.org ? orgIds[profile.org] : null,
            cluster_id: profile.inCluster ? cluster.id : null,
            momo_account_number: profile.phone,
            nip: profile.nip ?? null,
            is_active: true,
          })
          .execute();
      }
      await trx
        .insertInto('users')
        .values({
          firstname: 'Codjo',
          lastname: 'Hounkpatin',
          email: DEMO_SECOND_AGGREGATOR,
          username: DEMO_SECOND_AGGREGATOR,
          phone: '+2290197000010',
          password_hash: passwordHash,
          role_id: ROLE_IDS.ROLE_INDUSTRIAL,
          organization_id: orgIds.second,
          momo_account_number: '+2290197000010',
          nip: '3201900456',
          is_active: true,
        })
        .execute();
      await trx
        .insertInto('users')
        .values({
          firstname: 'Jonas',
          lastname: 'Gbaguidi',
          email: DEMO_PENDING_AGGREGATOR,
          username: DEMO_PENDING_AGGREGATOR,
          phone: '+2290197000099',
          nip: '3201900789',
          role_id: ROLE_IDS.ROLE_INDUSTRIAL,
          organization_id: orgIds.newcomer,
          is_active: false,
          self_registered: true,
        })
        .execute();
    });
    logger.info(
      { accounts: demoAccounts.length - REGISTERED_BY_ACTORS.size + 2 },
      'demo users loaded',
    );
  },
};

export interface DemoUserRef {
  id: string;
  walletId: string;
  clusterId: string | null;
  organizationId: string | null;
}

/** Looks a demo user up by e-mail (for later demo steps, e.g. the wallet's). */
export async function findDemoUser<DB extends IdentityTables>(
  db: Kysely<DB>,
  email: string,
): Promise<DemoUserRef> {
  const row = await narrowDb<IdentityTables>()(db)
    .selectFrom('users')
    .select(['id', 'wallet_id', 'cluster_id', 'organization_id'])
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new Error(`demo user ${email} not found (run the identity demo step first)`);
  return {
    id: row.id,
    walletId: row.wallet_id,
    clusterId: row.cluster_id,
    organizationId: row.organization_id,
  };
}
