import { ForbiddenError, NotFoundError } from '@filiere/platform';
import type { RoleCode } from '../http/auth.js';
import type { AuthService } from './auth.service.js';
import { fieldError, forbidden, isDuplicateEmail, userAlreadyExists } from './errors.js';
import {
  canAssignRole,
  canManageUser,
  canSeeUser,
  ROUTE_ROLES,
  userListScope,
  type Party,
} from './permissions.js';
import { USER_PUSH } from './notify.js';
import type { IdentityRepository, UserFilter, UserRow } from './repository.js';
import { toUserDto } from './repository.js';
import { ROLES } from './roles.js';
import type { SignupBody, UpdateUserBody, UserDto } from './schemas.js';
import { MSG } from './schemas.js';

export type TypeUser = 'user' | 'industrial' | 'cluster-manager' | 'sfd';

const SELF_ROLES: Record<Exclude<TypeUser, 'user'>, RoleCode> = {
  industrial: 'ROLE_INDUSTRIAL',
  'cluster-manager': 'ROLE_CLUSTER_MANAGER',
  sfd: 'ROLE_SFD',
};

export const partyOf = (row: UserRow): Party => ({
  id: row.id,
  role: row.role_code,
  clusterId: row.cluster_id,
});

export interface Page {
  page: number;
  limit: number;
  q?: string;
}

/** User administration, self-registration and profile edits, with their ownership rules. */
export class UsersService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly auth: AuthService,
    private readonly notifySuperAdmins: (
      type: string,
      data: Record<string, unknown>,
    ) => Promise<void> = async () => {},
  ) {}

  private async dto(id: string): Promise<UserDto> {
    const row = await this.repo.findById(id);
    if (!row) throw new NotFoundError('Utilisateur introuvable');
    return toUserDto(row);
  }

  private async ensureEmailFree(email: string, exceptId?: string): Promise<void> {
    const existing = await this.repo.findByEmail(email);
    if (existing && existing.id !== exceptId) throw userAlreadyExists();
  }

  private async checkReferences(body: {
    organizationId?: string | null;
    clusterId?: string | null;
  }) {
    if (body.organizationId && !(await this.repo.organizationExists(body.organizationId))) {
      throw fieldError('organizationId', 'Organisation introuvable');
    }
    if (body.clusterId && !(await this.repo.clusterExists(body.clusterId))) {
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
    await this.ensureEmailFree(body.email);
    const user = await this.create(body, role, {}, false, true, async (repo) => {
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
    if (!(ROUTE_ROLES.manageUsers as readonly RoleCode[]).includes(party.role)) throw forbidden();
    const role = body.roleCode
      ? ROLES.find((r) => r.code === body.roleCode)
      : ROLES.find((r) => r.id === body.roleId);
    if (!role) throw fieldError('roleId', MSG.required);
    if (!canAssignRole(party, role.code)) throw forbidden();
    let clusterId = body.clusterId ?? null;
    if (party.role === 'ROLE_CLUSTER_MANAGER') {
      if (clusterId && clusterId !== party.clusterId) throw forbidden();
      clusterId = party.clusterId;
    }
    await this.checkReferences({ organizationId: body.organizationId, clusterId });
    await this.ensureEmailFree(body.email);
    return this.create(
      body,
      role.code,
      { organization_id: body.organizationId ?? null, cluster_id: clusterId },
      true,
      false,
    );
  }

  private async create(
    body: SignupBody,
    role: RoleCode,
    links: { organization_id?: string | null; cluster_id?: string | null },
    active: boolean,
    selfRegistered: boolean,
    before?: (repo: IdentityRepository) => Promise<{ organization_id?: string }>,
  ): Promise<UserDto> {
    let id: string;
    try {
      // The organisation and the user commit together: a duplicate leaves no orphan.
      id = await this.repo.transaction(async (repo) => {
        const extra = before ? await before(repo) : {};
        return repo.insert({
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
          self_registered: selfRegistered,
          ...extra,
        });
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
    const scope = userListScope(partyOf(actor));
    if (!scope) throw forbidden();
    return this.page({ ...scope, roles, q: page.q }, page);
  }

  async clusterUsers(actor: UserRow, clusterId: string, page: Page) {
    const party = partyOf(actor);
    const scope = userListScope(party);
    if (!scope || (scope.clusterId && scope.clusterId !== clusterId)) throw forbidden();
    return this.page({ ...scope, clusterId, q: page.q }, page);
  }

  async industrials(actor: UserRow, page: Page) {
    const { rows, count } = await this.repo.list(
      { roles: ['ROLE_INDUSTRIAL'], activeOnly: true, excludeId: actor.id, q: page.q },
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
    return this.repo.countInactive('ROLE_INDUSTRIAL');
  }

  private async managed(actor: UserRow, id: string): Promise<UserRow> {
    const target = await this.repo.findById(id);
    if (!target) throw new NotFoundError('Utilisateur introuvable');
    if (!canManageUser(partyOf(actor), partyOf(target))) throw forbidden();
    return target;
  }

  async update(actor: UserRow, id: string, body: UpdateUserBody): Promise<UserDto> {
    const target = await this.managed(actor, id);
    const party = partyOf(actor);
    const values: Record<string, unknown> = {};
    if (body.roleId != null && body.roleId !== target.role_id) {
      const role = ROLES.find((r) => r.id === body.roleId)!;
      if (!canAssignRole(party, role.code)) throw forbidden();
      values.role_id = role.id;
    }
    if (party.role === 'ROLE_CLUSTER_MANAGER') {
      // A cluster manager's users stay in its cluster; an empty select changes nothing.
      if (body.clusterId && body.clusterId !== party.clusterId) throw forbidden();
    } else if (body.clusterId !== undefined) {
      values.cluster_id = body.clusterId;
    }
    await this.checkReferences(body);
    if (body.email !== undefined) {
      await this.ensureEmailFree(body.email, id);
      values.email = body.email;
      values.username = body.email;
    }
    if (body.organizationId !== undefined) values.organization_id = body.organizationId;
    for (const [key, column] of [
      ['firstname', 'firstname'],
      ['lastname', 'lastname'],
      ['phone', 'phone'],
      ['momoAccountNumber', 'momo_account_number'],
      ['bankAccountNumber', 'bank_account_number'],
    ] as const) {
      if (body[key] !== undefined) values[column] = body[key];
    }
    await this.save(id, values);
    return this.dto(id);
  }

  private async save(id: string, values: Record<string, unknown>): Promise<void> {
    if (!Object.keys(values).length) return;
    try {
      await this.repo.update(id, values);
    } catch (error) {
      if (isDuplicateEmail(error)) throw userAlreadyExists();
      throw error;
    }
  }

  async remove(actor: UserRow, id: string): Promise<void> {
    if (actor.id === id)
      throw new ForbiddenError('Vous ne pouvez pas supprimer votre propre compte');
    await this.managed(actor, id);
    await this.repo.softDelete(id);
  }

  async toggleActive(actor: UserRow, id: string): Promise<UserDto> {
    if (actor.id === id) {
      throw new ForbiddenError('Vous ne pouvez pas désactiver votre propre compte');
    }
    const target = await this.managed(actor, id);
    await this.repo.update(id, { is_active: !target.is_active });
    await this.notifySuperAdmins(USER_PUSH.statusChanged, {
      userId: id,
      isActive: !target.is_active,
    });
    return this.dto(id);
  }

  /** Profile: one field at a time, on the caller's own account. */
  async updateOwn(
    actor: UserRow,
    field: 'firstname' | 'lastname' | 'email',
    value: string,
  ): Promise<UserDto> {
    if (field === 'email') {
      await this.ensureEmailFree(value, actor.id);
      await this.save(actor.id, { email: value, username: value });
    } else {
      await this.save(actor.id, { [field]: value });
    }
    return this.dto(actor.id);
  }
}
