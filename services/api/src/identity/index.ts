import type { Kysely } from 'kysely';
import { Batcher } from '@filiere/event-store';
import type { IdentityTables } from './tables.js';
import type { SignedInUser } from '../kernel/actor.js';
import type { ContextModule } from '../kernel/module.js';
import { identityEvents, identityStreams } from './catalogue.js';
import { identityDemoStep } from './demo/identity.js';
import { identityMigrations } from './migrations/index.js';
import { USER_PUSH } from './notify.js';
import type { IdentityPorts } from './ports.js';
import { IdentityRepository } from './repository.js';

/**
 * Identity and access: users, organisations, clusters, sign-in, invitations. Its tables are
 * the state the API reads; every change of an account is also an event of its `user-<id>`
 * stream (the audit trail); its routes are under /api (http/). What it asks of the contexts
 * above it (ports.ts) is given by the module list (modules.ts).
 */
export function identityModule(ports: IdentityPorts): ContextModule {
  return {
    name: 'identity',
    events: identityEvents,
    streams: identityStreams,
    migrations: identityMigrations,
    projectors: [],
    demo: [identityDemoStep],
    pushes: Object.values(USER_PUSH),
    http: async () => {
      const { registerIdentity } = await import('./http/index.js');
      return (app) => registerIdentity(app, ports);
    },
  };
}

// The public face: what other contexts and the scripts may use.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The auth guard's loader (http/auth.ts): a user, not deleted, by id, with its role, as the
 * database has it now. The lookups asked while one is in flight (or within the same turn of
 * the event loop) go together in the next query (`id = any($1)`): one round trip per batch of
 * requests instead of one per request, and each request still reads its user from a query
 * sent after it arrived, so a role change, a deactivation or a revocation committed before a
 * request is always seen by it (the security rule: authorize with the current role and state).
 */
export function userLoader<DB extends IdentityTables>(
  db: Kysely<DB>,
): (userId: string) => Promise<SignedInUser | undefined> {
  const repository = new IdentityRepository(db);
  type Lookup = {
    id: string;
    resolve(u: SignedInUser | undefined): void;
    reject(e: unknown): void;
  };
  const batcher = new Batcher<Lookup>(
    async (lookups) => {
      try {
        // Only UUIDs reach the query: one malformed id must not fail the others' lookups.
        const ids = new Set(lookups.map((l) => l.id.toLowerCase()).filter((id) => UUID.test(id)));
        const rows = await repository.findByIds([...ids]);
        const byId = new Map(rows.map((r) => [r.id.toLowerCase(), r]));
        for (const l of lookups) l.resolve(byId.get(l.id.toLowerCase()));
      } catch (error) {
        for (const l of lookups) l.reject(error);
      }
    },
    256,
    0,
  );
  return (userId) =>
    new Promise((resolve, reject) => batcher.push({ id: userId, resolve, reject }));
}
export { hashPassword } from './password.js';
export { userDirectory } from './user-directory.js';
export type { IdentityTables } from './tables.js';
export { createMailer, identityServices, type IdentityServiceDeps } from './services.js';
export type { IdentityPorts, UserDeletionCheck } from './ports.js';
export {
  drawPin,
  members,
  membersOf,
  PAYOUT_BANKS,
  PHONE_TAKEN_MESSAGE,
  type MemberPatch,
  type MemberRole,
  type Members,
  type MembersApp,
  type MembersDeps,
  type MemberView,
  type NewMember,
  type NewOrganization,
  type PayoutAccounts,
  type RegisteredMember,
} from './members.js';
export {
  createSms,
  maskNumber,
  payoutApprovedSms,
  payoutRejectedSms,
  payoutRequestedSms,
  outboxRow,
  SMS_KINDS,
  SMS_STATUSES,
  SmsOutboxStore,
  type ClaimedSms,
  type Sms,
  type SmsKind,
  type SmsReport,
  type SmsRow,
  type SmsSender,
  type SmsStatus,
} from './sms/index.js';
export { MEMBER_ROLES, PIN_ROLES, isMemberRole } from './permissions.js';
export { normalizeBeninPhone, phoneOperator } from './phone.js';
export type { Mail, Mailer } from './mail/mailer.js';
export type { SignupBody } from './schemas.js';
export { email, phone, text } from './schemas.js';
export { TOKEN_TTL_MS } from './tokens.js';
export type { UserRow } from './repository.js';
export { ROLES, ORGANIZATION_TYPES } from './roles.js';
export {
  demoAccounts,
  DEMO_COOPERATIVE_EMAIL,
  DEMO_GROWER_EMAIL,
  DEMO_PASSWORD,
} from './demo/accounts.js';
export {
  DEMO_CLUSTER,
  giveDemoBankAccount,
  giveDemoPassword,
  DEMO_PENDING_AGGREGATOR,
  DEMO_SECOND_AGGREGATOR,
  findDemoUser,
  type DemoUserRef,
} from './demo/identity.js';
export { identityUsers } from './public.js';
