import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CommandPipeline } from '@filiere/event-store';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  narrowDb,
  NotFoundError,
  type Logger,
} from '@filiere/platform';
import type { AppDeps } from '../kernel/app-deps.js';
import { ROLE } from '../kernel/roles.js';
import type { ProductTables } from '../kernel/tables.js';
import { AuthService } from './auth.service.js';
import { identityEvent, type IdentityEvent } from './catalogue.js';
import { fieldError, isDuplicateEmail, userAlreadyExists } from './errors.js';
import {
  mayChange,
  mayCreate,
  mayEditMember,
  RULE_MESSAGES,
  type MemberEditField,
} from './field-rules.js';
import { IdentityJournal, type IdentityChange } from './journal.js';
import type { Mailer } from './mail/mailer.js';
import { hashPassword } from './password.js';
import { isMemberRole, PIN_ROLES, type MemberRole, type Party } from './permissions.js';
import { IdentityRepository, REVOKE_TOKENS, type UserRow } from './repository.js';
import { ROLES } from './roles.js';
import { createMailer } from './services.js';
import { createSms, pinSms, type SmsSender } from './sms/index.js';
import type { IdentityTables } from './tables.js';

/**
 * Identity's face for the actors context: the members staff register — growers and carriers
 * (ROLE_GROWER, ROLE_CARRIER: no web sign-in, they reach their account by phone and PIN), a
 * cooperative's representative (ROLE_FARMER_ORGANIZATION) and an input supplier's
 * (ROLE_INPUT_PROVIDER), who sign in on the web once they set a password from their
 * invitation mail. Every change is a row of `users` plus its event of `user-<id>` (the audit
 * trail, GET /api/users/{id}/audit), written together by identity's journal.
 *
 * Usage, in an area's route registration (actors/<area>/http/index.ts):
 *
 * ```ts
 * import { membersOf, phone } from '../../../identity/index.js';
 *
 * export const registerGrowers: HttpRegistration = async (app) => {
 *   const members = membersOf(app); // one per app, shared by every area
 *   app.post('/api/grower', { ... }, async (request) => {
 *     const body = request.body;
 *     return members.register(
 *       { role: 'ROLE_GROWER', firstname: body.firstname, lastname: body.lastname,
 *         phone: body.phone, email: null, nip: body.nip ?? null, clusterId,
 *         organizationId: body.farmerOrganizationId ?? null,
 *         momoAccountNumber: body.momo, bankName: null, bankAccountNumber: null },
 *       request.actor!.id,
 *       // Same transaction as the user and its UserRegistered event: a 409 (phone, e-mail)
 *       // or a failure here leaves nothing. Narrow the transaction to your tables (name the
 *       // wide type: TypeScript does not infer it from a Transaction):
 *       async (trx, user) => {
 *         const db = narrowDb<GrowersTables>()<ProductTables>(trx);
 *         return db.insertInto('growers').values({ user_id: user.id, ... })
 *           .returning('id').executeTakeFirstOrThrow();
 *       },
 *     );
 *   });
 * };
 * ```
 *
 * Outside the API (a demo step, a script), build one with `members({ db, commands, logger,
 * sms, mailer, publicUrl })`; nothing here loads Fastify (the worker never needs it).
 *
 * Authorization: the area checks the caller's role and its reach on its own rows (a grower's
 * cluster or cooperative) first; each function here checks again on the users rows, with the
 * rules of field-rules.ts (mayCreate, mayEditMember, mayChange 'active'), and refuses a target
 * that is not a member (403). `setCluster` and `resetPin` leave the role rule to the area
 * (clusters' configuration, the cluster manager's reset) and check the targets are members.
 */

export type { MemberRole } from './permissions.js';

export interface NewMember {
  role: MemberRole;
  firstname: string;
  lastname: string;
  /** As parsed by identity's `phone` schema (E.164 `+22901XXXXXXXX`). */
  phone: string;
  /** Growers and carriers may have none. */
  email: string | null;
  /** National id number, digits, ≤ 10. */
  nip: string | null;
  clusterId: string | null;
  /** The cooperative's / supplier's organisation (ignored when `organization` is given). */
  organizationId?: string | null;
  momoAccountNumber: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
  /**
   * A new organisation to create first, in the same transaction, which the user joins (a
   * cooperative's or a supplier's representative): `user.organizationId` in `within`.
   */
  organization?: NewOrganization;
}

export interface NewOrganization {
  denomination: string;
  type: 'COOPERATIVE' | 'PROVIDER';
  ifu: string | null;
}

/** A staff edit of a member (never its payout accounts: see `changePayout`). */
export interface MemberPatch {
  firstname?: string;
  lastname?: string;
  email?: string | null;
  phone?: string;
  nip?: string | null;
}

/** A member's payout accounts; in a change, an absent field stays as it is. */
export interface PayoutAccounts {
  momoAccountNumber: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
}

export interface MemberView extends PayoutAccounts {
  id: string;
  role: MemberRole;
  firstname: string;
  lastname: string;
  phone: string | null;
  email: string | null;
  nip: string | null;
  clusterId: string | null;
  organizationId: string | null;
  walletId: string;
  isActive: boolean;
  /** Whether a PIN was ever set (growers and carriers). */
  hasPin: boolean;
  createdAt: Date;
}

/** What `within` gets: the new user. */
export interface RegisteredMember {
  id: string;
  walletId: string;
  organizationId: string | null;
}

export interface Members<DB extends IdentityTables = ProductTables> {
  /**
   * Creates the member's user (active, so that it can be paid; growers and carriers have no
   * password, hence no web sign-in) with its UserRegistered event, then runs `within` in the
   * SAME transaction. 409 PHONE_ALREADY_EXIST for a phone of another non-deleted user, 409
   * USER_ALREADY_EXIST for a used e-mail. A cooperative's or supplier's representative with
   * an e-mail gets its invitation mail once committed.
   */
  register<T>(
    member: NewMember,
    actorId: string,
    within: (trx: Transaction<DB>, user: RegisteredMember) => Promise<T>,
  ): Promise<T>;
  /** A new cooperative/supplier organisation, in the caller's transaction if given. */
  createOrganization(
    input: NewOrganization,
    actorId: string,
    trx?: Transaction<DB>,
  ): Promise<{ id: string }>;
  /** A staff edit (names, NIP; phone and e-mail of growers and carriers), audited. */
  update(userId: string, patch: MemberPatch, actorId: string): Promise<void>;
  /**
   * Ban / reinstate (or a carrier's deactivation): audited (with the reason), tokens revoked,
   * sockets closed. `within` (e.g. the area's `deactivated_at`) runs in the same transaction,
   * also when the user already is in that state (then no event).
   */
  setActive(
    userId: string,
    active: boolean,
    actorId: string,
    reason?: string,
    within?: (trx: Transaction<DB>) => Promise<void>,
  ): Promise<void>;
  /**
   * Moves members to a cluster (or none): one UserClusterChanged per user whose cluster
   * changes; none for an empty list. With `trx`, inside the caller's transaction (the area's
   * rows and the users move together); the events are appended before the caller commits.
   */
  setCluster(
    userIds: string[],
    clusterId: string | null,
    actorId: string,
    trx?: Transaction<DB>,
  ): Promise<void>;
  /** Draws a new 5-digit PIN, stores its argon2id hash, sends it by SMS; audited (UserPinReset). */
  resetPin(userId: string, actorId: string): Promise<void>;
  /** The member (undefined when absent, deleted, or not a member). */
  member(userId: string): Promise<MemberView | undefined>;
  /**
   * Records a requested change of the member's payout accounts (UserPayoutChangeRequested),
   * running `within` (the request's row) in the same transaction. Nothing changes yet.
   */
  payoutRequested<T>(
    userId: string,
    request: { requestId: string } & PayoutAccounts,
    actorId: string,
    within: (trx: Transaction<DB>) => Promise<T>,
  ): Promise<T>;
  /** Records a rejected request (UserPayoutChangeRejected, with its reason). */
  payoutRejected<T>(
    userId: string,
    request: { requestId: string; reason: string },
    actorId: string,
    within: (trx: Transaction<DB>) => Promise<T>,
  ): Promise<T>;
  /**
   * Applies an APPROVED change of payout accounts: the approver must be a super admin other
   * than the requester (four eyes), else 403. One UserPayoutAccountChanged event per changed
   * account, with requestId, requestedBy and approvedBy; `within` (the request's new status)
   * runs in the same transaction.
   */
  changePayout<T>(
    userId: string,
    change: PayoutAccounts,
    approval: { requestId: string; requestedBy: string; approvedBy: string },
    within: (trx: Transaction<DB>) => Promise<T>,
  ): Promise<T>;
}

export interface MembersDeps<DB extends IdentityTables> {
  db: Kysely<DB>;
  /** The app's command pipeline (`app.commands`): the events go through it. */
  commands: CommandPipeline;
  logger: Logger;
  sms: SmsSender;
  /** Mails the invitation of a cooperative's or supplier's representative. */
  mailer: Mailer;
  /** The web app's address, for the invitation link. */
  publicUrl: string;
  /** Tells the websocket hubs that these users' access changed (a ban closes their sockets). */
  accessChanged?: (userIds: string[]) => Promise<void>;
}

/** The banks a payout account may be held at (spec §3: two banks offered). */
export const PAYOUT_BANKS = ['Ecobank Bénin', 'Orabank Bénin'] as const;

export const PHONE_TAKEN_MESSAGE = 'Ce numéro de téléphone est déjà utilisé';
export const phoneAlreadyExists = () =>
  new ConflictError(PHONE_TAKEN_MESSAGE, {
    reason: 'PHONE_ALREADY_EXIST',
    fields: { phone: PHONE_TAKEN_MESSAGE },
  });

const MESSAGES = {
  notFound: 'Utilisateur introuvable',
  actorNotFound: 'Votre compte est introuvable',
  notMember:
    'Seuls les producteurs, transporteurs, organisations paysannes et fournisseurs d’intrant se gèrent ici',
  noPinRole: 'Seuls les producteurs et les transporteurs ont un code PIN',
  noPhone: 'Ce membre n’a pas de numéro de téléphone : le code PIN ne peut pas lui être envoyé',
  phoneIsPayout:
    'Ce membre est payé sur son numéro de téléphone (aucun compte mobile money) : demandez d’abord un changement de compte de paiement',
  fourEyes:
    'Une demande de changement de compte est approuvée par un super administrateur autre que son auteur',
  deleted: 'Ce compte a été supprimé',
  cluster: 'Cluster introuvable',
  organization: 'Organisation introuvable',
} as const;

const ORGANIZATION_ROLES: Record<NewOrganization['type'], MemberRole> = {
  COOPERATIVE: ROLE.FARMER_ORGANIZATION,
  PROVIDER: ROLE.INPUT_PROVIDER,
};

/**
 * A member's username: a carrier's is its phone (spec: set equal to the phone), whatever its
 * e-mail; another's is its e-mail, or its phone when it has none.
 */
function usernameOf(role: string, email: string | null, phone: string): string;
function usernameOf(role: string, email: string | null, phone: string | null): string | null;
function usernameOf(role: string, email: string | null, phone: string | null) {
  return role === ROLE.CARRIER ? phone : (email ?? phone);
}

const partyOf = (row: UserRow): Party => ({
  id: row.id,
  role: row.role_code,
  clusterId: row.cluster_id,
  organizationId: row.organization_id,
});

/** A fresh 5-digit PIN (leading zeros kept), uniform over 00000–99999. */
export function drawPin(): string {
  return String(randomInt(0, 100_000)).padStart(5, '0');
}

/** The members face, built once per pipeline (see `membersOf` for the API's). */
export function members<DB extends IdentityTables>(deps: MembersDeps<DB>): Members<DB> {
  const journal = IdentityJournal.of(deps.db, deps.commands);
  const repo = new IdentityRepository(deps.db);
  const own = narrowDb<IdentityTables>()(deps.db);
  const accessChanged = deps.accessChanged ?? (async () => {});
  const auth = new AuthService({
    repo,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    logger: deps.logger,
    sign: () => {
      throw new Error('the members face never signs access tokens');
    },
    journal,
    accessChanged,
  });

  const actorOf = async (ids: IdentityRepository, actorId: string): Promise<Party> => {
    const actor = await ids.findById(actorId);
    if (!actor) throw new ForbiddenError(MESSAGES.actorNotFound);
    return partyOf(actor);
  };

  const lockedMember = async (ids: IdentityRepository, userId: string): Promise<UserRow> => {
    const target = await ids.findByIdForUpdate(userId);
    if (!target) throw new NotFoundError(MESSAGES.notFound);
    if (!isMemberRole(target.role_code)) throw new ForbiddenError(MESSAGES.notMember);
    return target;
  };

  /**
   * 409 when another non-deleted user holds `phone`. The advisory lock (per number, until the
   * transaction ends) serialises two members' writes of one number across processes (no
   * unique index: accounts of the user form may share a phone, see migration 0311).
   */
  const ensurePhoneFree = async (trx: Kysely<IdentityTables>, phone: string, exceptId?: string) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`users.phone:${phone}`}))`.execute(trx);
    let query = trx
      .selectFrom('users')
      .select('id')
      .where('phone', '=', phone)
      .where('deleted_at', 'is', null);
    if (exceptId) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw phoneAlreadyExists();
  };

  const ensureEmailFree = async (ids: IdentityRepository, email: string, exceptId?: string) => {
    const existing = await ids.findByEmail(email);
    if (existing && existing.id !== exceptId) throw userAlreadyExists();
  };

  /** A unique e-mail violation (a race past the check) as the French 409. */
  const conflicts = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (isDuplicateEmail(error)) throw userAlreadyExists();
      throw error;
    }
  };

  const insertOrganization = async (
    trx: Kysely<IdentityTables>,
    input: NewOrganization,
  ): Promise<string> => {
    const row = await trx
      .insertInto('organizations')
      .values({
        denomination: input.denomination,
        organization_type: input.type,
        ifu: input.ifu,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  return {
    async register(member, actorId, within) {
      const { user, result } = await conflicts(() =>
        journal.write(async (ids, trx) => {
          const idb = narrowDb<IdentityTables>()(trx);
          const actor = await actorOf(ids, actorId);
          const verdict = mayCreate(actor, member.role, member.clusterId, null);
          if (!verdict.allowed) throw new ForbiddenError(verdict.message);
          if (member.clusterId && !(await ids.clusterExists(member.clusterId))) {
            throw fieldError('clusterId', MESSAGES.cluster);
          }
          if (
            !member.organization &&
            member.organizationId &&
            !(await ids.organizationExists(member.organizationId))
          ) {
            throw fieldError('organizationId', MESSAGES.organization);
          }
          await ensurePhoneFree(idb, member.phone);
          if (member.email) await ensureEmailFree(ids, member.email);
          const organizationId = member.organization
            ? await insertOrganization(idb, member.organization)
            : (member.organizationId ?? null);
          const row = await idb
            .insertInto('users')
            .values({
              firstname: member.firstname,
              lastname: member.lastname,
              email: member.email,
              username: usernameOf(member.role, member.email, member.phone),
              phone: member.phone,
              nip: member.nip,
              role_id: ROLES.find((r) => r.code === member.role)!.id,
              cluster_id: member.clusterId,
              organization_id: organizationId,
              momo_account_number: member.momoAccountNumber,
              bank_name: member.bankName,
              bank_account_number: member.bankAccountNumber,
              is_active: true,
              self_registered: false,
            })
            .returning(['id', 'wallet_id'])
            .executeTakeFirstOrThrow();
          const user: RegisteredMember = { id: row.id, walletId: row.wallet_id, organizationId };
          const result = await within(trx, user);
          return {
            result: { user, result },
            userId: user.id,
            actorId,
            events: [
              identityEvent('UserRegistered', {
                userId: user.id,
                actorId,
                email: member.email,
                role: member.role,
                clusterId: member.clusterId,
                organizationId,
                phone: member.phone,
                momoAccountNumber: member.momoAccountNumber,
                bankAccountNumber: member.bankAccountNumber,
                isActive: true,
                selfRegistered: false,
                nip: member.nip,
                bankName: member.bankName,
              }),
            ],
          };
        }),
      );
      // A representative signs in on the web: its invitation (a grower or carrier never).
      if (member.email && !PIN_ROLES.includes(member.role)) {
        const row = await repo.findById(user.id);
        if (row) await auth.sendLink(row, 'INVITATION');
      }
      return result;
    },

    async createOrganization(input, actorId, trx) {
      const run = async (db: Kysely<IdentityTables>) => {
        const actor = await actorOf(new IdentityRepository(db), actorId);
        const verdict = mayCreate(actor, ORGANIZATION_ROLES[input.type], actor.clusterId, null);
        if (!verdict.allowed) throw new ForbiddenError(verdict.message);
        return { id: await insertOrganization(db, input) };
      };
      return trx ? run(narrowDb<IdentityTables>()(trx)) : run(own);
    },

    async update(userId, patch, actorId) {
      const changed = await conflicts(() =>
        journal.write(async (ids, trx) => {
          const idb = narrowDb<IdentityTables>()(trx);
          const target = await lockedMember(ids, userId);
          const actor = await actorOf(ids, actorId);
          const check = (field: MemberEditField) => {
            const verdict = mayEditMember(actor, partyOf(target), field);
            if (!verdict.allowed) {
              throw new ForbiddenError(verdict.message, { reason: 'FIELD_RULE' });
            }
          };
          const base = { userId, actorId };
          const values: Record<string, unknown> = {};
          const events: IdentityEvent[] = [];
          for (const field of ['firstname', 'lastname', 'nip'] as const) {
            const next = patch[field];
            if (next === undefined || next === target[field]) continue;
            check(field);
            values[field] = next;
            events.push(
              identityEvent('UserDetailsChanged', {
                ...base,
                field,
                from: target[field],
                to: next,
              }),
            );
          }
          let phone = target.phone;
          if (patch.phone !== undefined && patch.phone !== target.phone) {
            check('phone');
            // Withdrawals pay the phone when there is no mobile money account: a payout change.
            if (!target.momo_account_number) {
              throw new BusinessRuleError(MESSAGES.phoneIsPayout, { reason: 'PHONE_IS_PAYOUT' });
            }
            await ensurePhoneFree(idb, patch.phone, userId);
            values.phone = phone = patch.phone;
            events.push(
              identityEvent('UserDetailsChanged', {
                ...base,
                field: 'phone',
                from: target.phone,
                to: patch.phone,
              }),
            );
          }
          let email = target.email;
          let emailChanged = false;
          if (
            patch.email !== undefined &&
            (patch.email?.toLowerCase() ?? null) !== (target.email?.toLowerCase() ?? null)
          ) {
            check('email');
            // One that set a password signs in on the web: its e-mail is its own.
            if (target.has_password) {
              throw new ForbiddenError(RULE_MESSAGES.memberOwnerOnly, { reason: 'FIELD_RULE' });
            }
            if (patch.email) await ensureEmailFree(ids, patch.email, userId);
            values.email = email = patch.email;
            emailChanged = true;
            events.push(
              identityEvent('UserEmailChanged', { ...base, from: target.email, to: patch.email }),
            );
          }
          if (emailChanged || values.phone !== undefined) {
            values.username = usernameOf(target.role_code, email, phone);
          }
          if (emailChanged) {
            // Links mailed to the former address stop working, and so do its sessions.
            await ids.revokeTokens(userId, 'INVITATION');
            await ids.revokeTokens(userId, 'RESET');
            Object.assign(values, REVOKE_TOKENS);
          }
          if (Object.keys(values).length) await ids.update(userId, values);
          return { result: emailChanged, userId, actorId, events };
        }),
      );
      if (changed) await accessChanged([userId]);
    },

    async setActive(userId, active, actorId, reason, within) {
      const changed = await journal.write(async (ids, trx) => {
        const target = await lockedMember(ids, userId);
        const actor = await actorOf(ids, actorId);
        const verdict = mayChange(actor, partyOf(target), { field: 'active' });
        if (!verdict.allowed) throw new ForbiddenError(verdict.message, { reason: 'FIELD_RULE' });
        if (within) await within(trx);
        if (target.is_active === active) {
          return { result: false, userId, actorId, events: [] };
        }
        // A deactivation revokes the tokens: reactivating does not bring old sessions back.
        await ids.update(
          userId,
          active ? { is_active: true } : { is_active: false, ...REVOKE_TOKENS },
        );
        const data = { userId, actorId, ...(reason ? { reason } : {}) };
        return {
          result: true,
          userId,
          actorId,
          events: [identityEvent(active ? 'UserActivated' : 'UserDeactivated', data)],
        };
      });
      if (changed && !active) await accessChanged([userId]);
    },

    async setCluster(userIds, clusterId, actorId, trx) {
      for (const userId of new Set(userIds)) {
        const write = <T>(
          work: (ids: IdentityRepository) => Promise<IdentityChange<T>>,
        ): Promise<T> => (trx ? journal.writeIn(trx, work) : journal.write(work));
        await write(async (ids) => {
          const target = await lockedMember(ids, userId);
          await actorOf(ids, actorId);
          if (target.cluster_id === clusterId) {
            return { result: undefined, userId, actorId, events: [] };
          }
          if (clusterId && !(await ids.clusterExists(clusterId))) {
            throw fieldError('clusterId', MESSAGES.cluster);
          }
          await ids.update(userId, { cluster_id: clusterId });
          return {
            result: undefined,
            userId,
            actorId,
            events: [
              identityEvent('UserClusterChanged', {
                userId,
                actorId,
                from: target.cluster_id,
                to: clusterId,
              }),
            ],
          };
        });
      }
    },

    async resetPin(userId, actorId) {
      const pin = drawPin();
      const pinHash = await hashPassword(pin);
      await journal.write(async (ids, trx) => {
        const target = await lockedMember(ids, userId);
        await actorOf(ids, actorId);
        if (!PIN_ROLES.includes(target.role_code)) throw new ForbiddenError(MESSAGES.noPinRole);
        if (!target.phone) throw new BusinessRuleError(MESSAGES.noPhone, { reason: 'NO_PHONE' });
        await ids.update(userId, { pin_hash: pinHash });
        // In the reset's transaction: the new PIN and its SMS are written together or not at all.
        await deps.sms
          .within(trx)
          .send({ to: target.phone, text: pinSms(pin), kind: 'pin', userId });
        return {
          result: undefined,
          userId,
          actorId,
          events: [identityEvent('UserPinReset', { userId, actorId })],
        };
      });
    },

    async member(userId) {
      const row = await own
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select([
          'u.id',
          'r.code as role',
          'u.firstname',
          'u.lastname',
          'u.phone',
          'u.email',
          'u.nip',
          'u.cluster_id',
          'u.organization_id',
          'u.wallet_id',
          'u.momo_account_number',
          'u.bank_name',
          'u.bank_account_number',
          'u.is_active',
          'u.pin_hash',
          'u.created_at',
        ])
        .where('u.id', '=', userId)
        .where('u.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row || !isMemberRole(row.role)) return undefined;
      return {
        id: row.id,
        role: row.role,
        firstname: row.firstname,
        lastname: row.lastname,
        phone: row.phone,
        email: row.email,
        nip: row.nip,
        clusterId: row.cluster_id,
        organizationId: row.organization_id,
        walletId: row.wallet_id,
        momoAccountNumber: row.momo_account_number,
        bankName: row.bank_name,
        bankAccountNumber: row.bank_account_number,
        isActive: row.is_active,
        hasPin: row.pin_hash !== null,
        createdAt: row.created_at,
      };
    },

    payoutRequested(userId, request, actorId, within) {
      return journal.write(async (ids, trx) => {
        await lockedMember(ids, userId);
        await actorOf(ids, actorId);
        const result = await within(trx);
        return {
          result,
          userId,
          actorId,
          events: [
            identityEvent('UserPayoutChangeRequested', {
              userId,
              actorId,
              requestId: request.requestId,
              momoAccountNumber: request.momoAccountNumber,
              bankName: request.bankName,
              bankAccountNumber: request.bankAccountNumber,
            }),
          ],
        };
      });
    },

    payoutRejected(userId, request, actorId, within) {
      return journal.write(async (ids, trx) => {
        await lockedMember(ids, userId);
        await actorOf(ids, actorId);
        const result = await within(trx);
        return {
          result,
          userId,
          actorId,
          events: [
            identityEvent('UserPayoutChangeRejected', {
              userId,
              actorId,
              requestId: request.requestId,
              reason: request.reason,
            }),
          ],
        };
      });
    },

    changePayout(userId, change, approval, within) {
      return journal.write(async (ids, trx) => {
        const target = await lockedMember(ids, userId);
        const approver = await actorOf(ids, approval.approvedBy);
        if (approver.role !== ROLE.SUPER_ADMIN || approval.approvedBy === approval.requestedBy) {
          throw new ForbiddenError(MESSAGES.fourEyes, { reason: 'FOUR_EYES' });
        }
        const current = await narrowDb<IdentityTables>()(trx)
          .selectFrom('users')
          .select(['momo_account_number', 'bank_name', 'bank_account_number'])
          .where('id', '=', target.id)
          .executeTakeFirstOrThrow();
        const columns = [
          ['momoAccountNumber', 'momo_account_number', 'MOBILE_MONEY'],
          ['bankName', 'bank_name', 'BANK_NAME'],
          ['bankAccountNumber', 'bank_account_number', 'BANK'],
        ] as const;
        const values: Record<string, unknown> = {};
        const events: IdentityEvent[] = [];
        for (const [field, column, account] of columns) {
          const next = change[field];
          if (next === current[column]) continue;
          values[column] = next;
          events.push(
            identityEvent('UserPayoutAccountChanged', {
              userId,
              actorId: approval.approvedBy,
              account,
              from: current[column],
              to: next,
              ...approval,
            }),
          );
        }
        if (Object.keys(values).length) await ids.update(userId, values);
        const result = await within(trx);
        return { result, userId, actorId: approval.approvedBy, events };
      });
    },
  };
}

/** What `membersOf` needs of the app: its deps and decorations (no Fastify import). */
export interface MembersApp {
  deps: Pick<AppDeps, 'db' | 'logger' | 'config'>;
  commands: CommandPipeline;
  accessChanged(userIds: string[]): Promise<void>;
}

const perApp = new WeakMap<CommandPipeline, Members<ProductTables>>();

/**
 * The members face of an app, made once per app (keyed by its command pipeline): what an
 * area's route registration calls — `membersOf(app)`. Its SMS go through `createSms`, its
 * mails through `createMailer`, like identity's own routes.
 */
export function membersOf(app: MembersApp): Members<ProductTables> {
  let face = perApp.get(app.commands);
  if (!face) {
    const { config, db, logger } = app.deps;
    face = members({
      db,
      commands: app.commands,
      logger,
      sms: createSms(config, db, logger),
      mailer: createMailer(config, db, logger),
      publicUrl: config.PUBLIC_URL,
      accessChanged: (userIds) => app.accessChanged(userIds),
    });
    perApp.set(app.commands, face);
  }
  return face;
}
