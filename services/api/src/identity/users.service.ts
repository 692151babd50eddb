import { BusinessRuleError, ForbiddenError, NotFoundError } from '@filiere/platform';
import { ROLE, type RoleCode } from '../kernel/roles.js';
import type { AuthService } from './auth.service.js';
import { identityEvent, type IdentityEvent, type PayoutAccount } from './catalogue.js';
import { fieldError, forbidden, isDuplicateEmail, userAlreadyExists } from './errors.js';
import {
  clusterOfNewUser,
  mayChange,
  mayCreate,
  mayDelete,
  missingScopeMessage,
  organizationOfNewUser,
  RULE_MESSAGES,
  type FieldChange,
  type PayoutField,
  type Verdict,
} from './field-rules.js';
import type { IdentityWriter } from './journal.js';
import { emailChangedMail, payoutChangedMail } from './mail/templates.js';
import {
  canManageUser,
  canSeeUser,
  missingScope,
  userListScope,
  type Party,
} from './permissions.js';
import { USER_PUSH, type UserPushType } from './notify.js';
import { verifyPassword } from './password.js';
import type { IdentityRepository, NewUser, UserFilter, UserRow } from './repository.js';
import { REVOKE_TOKENS, toUserDto } from './repository.js';
import { ROLES } from './roles.js';
import type { SignupBody, UpdateUserBody, UserDto } from './schemas.js';
import { MSG } from './schemas.js';

export type TypeUser = 'user' | 'industrial' | 'cluster-manager' | 'sfd';

const SELF_ROLES: Record<Exclude<TypeUser, 'user'>, RoleCode> = {
  industrial: ROLE.INDUSTRIAL,
  'cluster-manager': ROLE.CLUSTER_MANAGER,
  sfd: ROLE.SFD,
};

export const partyOf = (row: UserRow): Party => ({
  id: row.id,
  role: row.role_code,
  clusterId: row.cluster_id,
  organizationId: row.organization_id,
});

/** 403 saying what a manager lacks (no cluster, no organisation), or the plain refusal. */
function scopeRefusal(actor: Party): ForbiddenError {
  const message = missingScopeMessage(actor);
  return message ? new ForbiddenError(message, { reason: missingScope(actor) }) : forbidden();
}

export interface Page {
  page: number;
  limit: number;
  q?: string;
}

/** The payout fields: their column, their account in events, their name in mails. */
const PAYOUT: Record<
  PayoutField,
  {
    column: 'phone' | 'momo_account_number' | 'bank_account_number';
    account: PayoutAccount;
    label: string;
  }
> = {
  momoAccountNumber: {
    column: 'momo_account_number',
    account: 'MOBILE_MONEY',
    label: 'Le numéro mobile money',
  },
  bankAccountNumber: {
    column: 'bank_account_number',
    account: 'BANK',
    label: 'Le numéro de compte bancaire',
  },
  phone: {
    column: 'phone',
    account: 'PHONE',
    label: 'Le numéro de téléphone (mobile money par défaut)',
  },
};

/** What an accepted change leaves to do once committed. */
interface Applied {
  before: UserRow;
  emailChanged: boolean;
  payoutChanged: PayoutField[];
  revoked: boolean;
}

const refusal = (verdict: Verdict): ForbiddenError | undefined =>
  verdict.allowed ? undefined : new ForbiddenError(verdict.message, { reason: 'FIELD_RULE' });

/** User administration, self-registration and profile edits, with their ownership rules. */
export class UsersService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly auth: AuthService,
    private readonly notifySuperAdmins: (
      type: UserPushType,
      data: Record<string, unknown>,
    ) => Promise<void> = async () => {},
    /** 422 while the user's wallet holds money or a withdrawal is in flight (the wallet's). */
    private readonly requireEmptyWallet: (userId: string) => Promise<void>,
    /** Writes to the identity tables with their audit events (journal.ts). */
    private readonly journal: IdentityWriter,
    /** Tells the websocket hubs that these users' access changed. */
    private readonly accessChanged: (userIds: string[]) => Promise<void> = async () => {},
  ) {}

  private async dto(id: string): Promise<UserDto> {
    const row = await this.repo.findById(id);
    if (!row) throw new NotFoundError('Utilisateur introuvable');
    return toUserDto(row);
  }

  private static async ensureEmailFree(
    repo: IdentityRepository,
    email: string,
    exceptId?: string,
  ): Promise<void> {
    const existing = await repo.findByEmail(email);
    if (existing && existing.id !== exceptId) throw userAlreadyExists();
  }

  private async checkReferences(
    repo: IdentityRepository,
    body: { organizationId?: string | null; clusterId?: string | null },
  ) {
    if (body.organizationId && !(await repo.organizationExists(body.organizationId))) {
      throw fieldError('organizationId', 'Organisation introuvable');
    }
    if (body.clusterId && !(await repo.clusterExists(body.clusterId))) {
      throw fieldError('clusterId', 'Cluster introuvable');
    }
  }

  /** Public self-registration: an inactive account and an invitation mail. */
  async register(typeUser: Exclude<TypeUser, 'user'>, body: SignupBody): Promise<UserDto> {
    const role = SELF_ROLES[typeUser];
    if (typeUser === 'industrial') {
      if (!body.ifu) throw fieldError('ifu', MSG.required);
      if (!body.denomination) throw fieldError('denomination', MSG.required);
    }
    await UsersService.ensureEmailFree(this.repo, body.email);
    const user = await this.create(undefined, body, role, {}, false, async (repo) => {
      if (!body.denomination || (typeUser !== 'industrial' && typeUser !== 'sfd')) return {};
      const organizationId = await repo.insertOrganization(
        body.denomination,
        typeUser === 'industrial' ? 'INDUSTRIAL' : 'MICROFINANCE',
        body.ifu || null,
      );
      return { organization_id: organizationId };
    });
    await this.notifySuperAdmins(USER_PUSH.inactiveCreated, { userId: user.id, role });
    return user;
  }

  /** Internal creation by an admin or a cluster manager: an active account and a set-password mail. */
  async createInternal(actor: UserRow, body: SignupBody): Promise<UserDto> {
    const party = partyOf(actor);
    const role = body.roleCode
      ? ROLES.find((r) => r.code === body.roleCode)
      : ROLES.find((r) => r.id === body.roleId);
    if (!role) throw fieldError('roleId', MSG.required);
    const verdict = mayCreate(
      party,
      role.code,
      body.clusterId ?? null,
      body.organizationId ?? null,
    );
    if (!verdict.allowed) {
      // A cluster manager without a cluster, an aggregator without an organisation: say so.
      throw verdict.message === missingScopeMessage(party)
        ? scopeRefusal(party)
        : refusal(verdict)!;
    }
    const clusterId = clusterOfNewUser(party, body.clusterId ?? null);
    const organizationId = organizationOfNewUser(party, body.organizationId ?? null);
    await this.checkReferences(this.repo, { organizationId, clusterId });
    await UsersService.ensureEmailFree(this.repo, body.email);
    const user = await this.create(
      actor,
      body,
      role.code,
      { organization_id: organizationId, cluster_id: clusterId },
      true,
    );
    // Created active: an aggregator can be added to a season at once.
    if (role.code === ROLE.INDUSTRIAL) {
      await this.notifySuperAdmins(USER_PUSH.industrialToAdd, { userId: user.id });
    }
    return user;
  }

  private async create(
    registrar: UserRow | undefined,
    body: SignupBody,
    role: RoleCode,
    links: { organization_id?: string | null; cluster_id?: string | null },
    active: boolean,
    before?: (repo: IdentityRepository) => Promise<{ organization_id?: string }>,
  ): Promise<UserDto> {
    let id: string;
    try {
      // The organisation, the user and its UserRegistered event go together: a duplicate
      // leaves no orphan and no event.
      id = await this.journal.write(async (repo) => {
        const extra = before ? await before(repo) : {};
        const values: NewUser = {
          firstname: body.firstname,
          lastname: body.lastname,
          email: body.email,
          username: body.email,
          phone: body.phone,
          role_id: ROLES.find((r) => r.code === role)!.id,
          ...links,
          momo_account_number: body.momoAccountNumber ?? null,
          bank_account_number: body.bankAccountNumber ?? null,
          is_active: active,
          self_registered: registrar === undefined,
          ...extra,
        };
        const userId = await repo.insert(values);
        const actorId = registrar?.id ?? userId;
        return {
          result: userId,
          userId,
          actorId,
          events: [
            identityEvent('UserRegistered', {
              userId,
              actorId,
              email: values.email,
              role,
              clusterId: values.cluster_id ?? null,
              organizationId: values.organization_id ?? null,
              phone: values.phone,
              momoAccountNumber: values.momo_account_number ?? null,
              bankAccountNumber: values.bank_account_number ?? null,
              isActive: active,
              selfRegistered: registrar === undefined,
            }),
          ],
        };
      });
    } catch (error) {
      if (isDuplicateEmail(error)) throw userAlreadyExists();
      throw error;
    }
    const row = (await this.repo.findById(id))!;
    await this.auth.sendLink(row, 'INVITATION');
    return toUserDto(row);
  }

  async get(actor: UserRow, id: string): Promise<UserDto> {
    const target = await this.repo.findById(id);
    if (!target) throw new NotFoundError('Utilisateur introuvable');
    if (!canSeeUser(partyOf(actor), partyOf(target))) throw forbidden();
    return toUserDto(target);
  }

  async list(actor: UserRow, page: Page, roles: RoleCode[] = []) {
    const party = partyOf(actor);
    const scope = userListScope(party);
    if (!scope) throw scopeRefusal(party);
    return this.page({ ...scope, roles, q: page.q }, page);
  }

  async clusterUsers(actor: UserRow, clusterId: string, page: Page) {
    const party = partyOf(actor);
    const scope = userListScope(party);
    if (!scope) throw scopeRefusal(party);
    if (scope.clusterId && scope.clusterId !== clusterId) throw forbidden();
    return this.page({ ...scope, clusterId, q: page.q }, page);
  }

  async industrials(actor: UserRow, page: Page) {
    const { rows, count } = await this.repo.list(
      { roles: [ROLE.INDUSTRIAL], activeOnly: true, excludeId: actor.id, q: page.q },
      page.page,
      page.limit,
    );
    return {
      data: rows.map((r) => {
        const { id, firstname, lastname, organization } = toUserDto(r);
        return { id, firstname, lastname, organization };
      }),
      count,
    };
  }

  private async page(filter: UserFilter, page: Page) {
    const { rows, count } = await this.repo.list(filter, page.page, page.limit);
    return { data: rows.map(toUserDto), count };
  }

  countInactives(): Promise<number> {
    return this.repo.countInactive(ROLE.INDUSTRIAL);
  }

  /** The target, its row locked, or 404. */
  private static async locked(repo: IdentityRepository, id: string): Promise<UserRow> {
    const target = await repo.findByIdForUpdate(id);
    if (!target) throw new NotFoundError('Utilisateur introuvable');
    return target;
  }

  /** PATCH /users/{id}: each changed field checked by field-rules.ts. */
  async update(
    actor: UserRow,
    id: string,
    body: UpdateUserBody,
    currentPassword?: string,
  ): Promise<UserDto> {
    const applied = await this.journal.write((repo) =>
      this.applyChanges(repo, actor, id, body, currentPassword),
    );
    await this.afterChange(applied);
    return this.dto(id);
  }

  /** Profile: one field at a time, on the caller's own account (same rules as PATCH). */
  async updateOwn(
    actor: UserRow,
    field: 'firstname' | 'lastname' | 'email' | PayoutField,
    value: string | null,
    currentPassword?: string,
  ): Promise<UserDto> {
    return this.update(actor, actor.id, { [field]: value }, currentPassword);
  }

  /**
   * Compares the body with the locked row, checks every real change against the field rules
   * (a field sent with its current value is no change), the current password when a rule asks
   * for it, then updates the row and answers the events that record the changes.
   */
  private async applyChanges(
    repo: IdentityRepository,
    actor: UserRow,
    id: string,
    body: UpdateUserBody,
    currentPassword: string | undefined,
  ) {
    const target = await UsersService.locked(repo, id);
    const party = partyOf(actor);
    const targetParty = partyOf(target);
    if (actor.id !== target.id && !canManageUser(party, targetParty)) {
      throw new ForbiddenError(RULE_MESSAGES.reach);
    }
    const values: Record<string, unknown> = {};
    const events: IdentityEvent[] = [];
    const base = { userId: target.id, actorId: actor.id };
    const verdicts: Verdict[] = [];
    const check = (change: FieldChange) => {
      const verdict = mayChange(party, targetParty, change);
      const denied = refusal(verdict);
      if (denied) throw denied;
      verdicts.push(verdict);
    };

    if (body.firstname !== undefined && body.firstname !== target.firstname) {
      check({ field: 'firstname' });
      values.firstname = body.firstname;
    }
    if (body.lastname !== undefined && body.lastname !== target.lastname) {
      check({ field: 'lastname' });
      values.lastname = body.lastname;
    }
    // Role and organisation are judged together: the user they leave decides whether the
    // change makes a platform auditor (field-rules.ts mayMakePlatformAuditor).
    const roleSent =
      body.roleId != null && body.roleId !== target.role_id
        ? ROLES.find((r) => r.id === body.roleId)!
        : undefined;
    const organizationSent =
      body.organizationId !== undefined && body.organizationId !== target.organization_id
        ? { to: body.organizationId }
        : undefined;
    if (organizationSent) {
      check({ field: 'organization', to: organizationSent.to, role: roleSent?.code });
      values.organization_id = organizationSent.to;
    }
    let revoked = false;
    const role = roleSent;
    if (role) {
      check({ field: 'role', to: role.code, organizationId: organizationSent?.to });
      values.role_id = role.id;
      revoked = true;
      events.push(
        identityEvent('UserRoleChanged', { ...base, from: target.role_code, to: role.code }),
      );
    }
    // A cluster manager's form sends its own cluster or nothing: an empty select changes nothing.
    const clusterSent =
      party.role === ROLE.CLUSTER_MANAGER ? body.clusterId || undefined : body.clusterId;
    if (clusterSent !== undefined && clusterSent !== target.cluster_id) {
      check({ field: 'cluster', to: clusterSent });
      values.cluster_id = clusterSent;
      events.push(
        identityEvent('UserClusterChanged', { ...base, from: target.cluster_id, to: clusterSent }),
      );
    }
    let emailChanged = false;
    if (body.email !== undefined && body.email.toLowerCase() !== target.email?.toLowerCase()) {
      check({ field: 'email' });
      values.email = body.email;
      values.username = body.email;
      emailChanged = true;
      events.push(
        identityEvent('UserEmailChanged', { ...base, from: target.email, to: body.email }),
      );
    }
    const payoutChanged: PayoutField[] = [];
    for (const field of ['phone', 'momoAccountNumber', 'bankAccountNumber'] as const) {
      const next = body[field];
      const { column, account } = PAYOUT[field];
      if (next === undefined || next === target[column]) continue;
      check({ field });
      values[column] = next;
      payoutChanged.push(field);
      events.push(
        identityEvent('UserPayoutAccountChanged', {
          ...base,
          account,
          from: target[column],
          to: next,
        }),
      );
    }

    if (verdicts.some((v) => v.allowed && v.needsCurrentPassword)) {
      if (!currentPassword)
        throw fieldError('currentPassword', RULE_MESSAGES.currentPasswordRequired);
      // The rules ask for it only on the owner's own account: `target` is the actor.
      if (!(await verifyPassword(await repo.passwordHashOf(target.id), currentPassword))) {
        throw new BusinessRuleError(RULE_MESSAGES.currentPasswordWrong, {
          reason: 'WRONG_CURRENT_PASSWORD',
          fields: { currentPassword: RULE_MESSAGES.currentPasswordWrong },
        });
      }
    }
    await this.checkReferences(repo, {
      organizationId: values.organization_id as string | null | undefined,
      clusterId: values.cluster_id as string | null | undefined,
    });
    if (emailChanged) await UsersService.ensureEmailFree(repo, body.email!, id);
    if (Object.keys(values).length) {
      try {
        await repo.update(id, revoked ? { ...values, ...REVOKE_TOKENS } : values);
      } catch (error) {
        if (isDuplicateEmail(error)) throw userAlreadyExists();
        throw error;
      }
    }
    const applied: Applied = { before: target, emailChanged, payoutChanged, revoked };
    return { result: applied, userId: target.id, actorId: actor.id, events };
  }

  /** Once committed: the notices to the old address, and the hubs told of revoked tokens. */
  private async afterChange(applied: Applied): Promise<void> {
    const { before } = applied;
    const to = before.email;
    // A member without an e-mail (grower, carrier) gets no notice by mail.
    if (to && applied.emailChanged) {
      const now = (await this.repo.findById(before.id))?.email ?? '';
      await this.auth.sendMail(emailChangedMail(to, before.firstname, now));
    }
    if (to && applied.payoutChanged.length) {
      const now = await this.repo.findById(before.id);
      for (const field of applied.payoutChanged) {
        const { column, label } = PAYOUT[field];
        await this.auth.sendMail(
          payoutChangedMail(to, before.firstname, label, now?.[column] ?? null),
        );
      }
    }
    if (applied.revoked) await this.accessChanged([before.id]);
  }

  async remove(actor: UserRow, id: string): Promise<void> {
    await this.journal.write(async (repo) => {
      const target = await UsersService.locked(repo, id);
      const denied = refusal(mayDelete(partyOf(actor), partyOf(target)));
      if (denied) throw denied;
      await this.requireEmptyWallet(id);
      await repo.softDelete(id);
      return {
        result: undefined,
        userId: id,
        actorId: actor.id,
        events: [identityEvent('UserDeleted', { userId: id, actorId: actor.id })],
      };
    });
    await this.accessChanged([id]);
    await this.notifySuperAdmins(USER_PUSH.deleted, { userId: id });
  }

  async toggleActive(actor: UserRow, id: string): Promise<UserDto> {
    const { isActive, role } = await this.journal.write(async (repo) => {
      const target = await UsersService.locked(repo, id);
      const denied = refusal(mayChange(partyOf(actor), partyOf(target), { field: 'active' }));
      if (denied) throw denied;
      const next = !target.is_active;
      // A deactivation revokes the tokens: reactivating does not bring old sessions back.
      await repo.update(id, next ? { is_active: true } : { is_active: false, ...REVOKE_TOKENS });
      const base = { userId: id, actorId: actor.id };
      return {
        result: { isActive: next, role: target.role_code },
        userId: id,
        actorId: actor.id,
        events: [identityEvent(next ? 'UserActivated' : 'UserDeactivated', base)],
      };
    });
    if (!isActive) await this.accessChanged([id]);
    // Published after the commit, like every push: a rolled-back toggle tells nobody.
    await this.notifySuperAdmins(USER_PUSH.statusChanged, { userId: id, isActive });
    if (isActive && role === ROLE.INDUSTRIAL) {
      await this.notifySuperAdmins(USER_PUSH.industrialToAdd, { userId: id });
    }
    return this.dto(id);
  }
}
