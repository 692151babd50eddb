import { describe, expect, it } from 'vitest';
import type { RoleCode } from '../http/auth.js';
import {
  clusterOfNewUser,
  mayAssignRole,
  mayChange,
  mayCreate,
  mayDelete,
  mayEditMember,
  mayResetPin,
  MEMBER_EDIT_FIELDS,
  organizationOfNewUser,
  OWNER_FIELDS,
  rankOf,
  RULE_MESSAGES,
  type FieldChange,
} from './field-rules.js';
import type { Party } from './permissions.js';

const p = (id: string, role: RoleCode, clusterId: string | null = 'A'): Party => ({
  id,
  role,
  clusterId,
});
const superAdmin = p('sa', 'ROLE_SUPER_ADMIN', null);
const admin = p('ad', 'ROLE_ADMIN', null);
const manager = p('cm', 'ROLE_CLUSTER_MANAGER', 'A');
const aggregator = p('ag', 'ROLE_INDUSTRIAL', 'A');
const grower = p('gr', 'ROLE_GROWER', 'A');
const carrier = p('ca', 'ROLE_CARRIER', 'A');
const farAway = p('fa', 'ROLE_GROWER', 'B');

const allowed = (actor: Party, target: Party, change: FieldChange) =>
  mayChange(actor, target, change).allowed;

describe('field rules: e-mail, password, phone and payout accounts are the owner’s', () => {
  it('given a cluster manager and an aggregator of its cluster, when it changes the aggregator’s e-mail or payout account, then it is refused', () => {
    for (const field of OWNER_FIELDS) {
      const verdict = mayChange(manager, aggregator, { field });
      expect(verdict, field).toEqual({ allowed: false, message: RULE_MESSAGES.ownerOnly });
    }
  });

  it('given any staff role, when it changes another user’s owner field, then it is refused — the super admin too', () => {
    for (const actor of [superAdmin, admin, manager]) {
      for (const field of OWNER_FIELDS) expect(allowed(actor, grower, { field })).toBe(false);
    }
  });

  it('given growers and carriers (registered by staff), when staff change their payout accounts, then it is refused until the four-eyes request exists', () => {
    for (const target of [grower, carrier]) {
      for (const field of ['momoAccountNumber', 'bankAccountNumber', 'phone'] as const) {
        expect(allowed(manager, target, { field })).toBe(false);
        expect(allowed(admin, target, { field })).toBe(false);
      }
    }
  });

  it('given the owner, when it changes its own owner field, then it is allowed with its current password', () => {
    for (const who of [grower, aggregator, manager, admin, superAdmin]) {
      for (const field of OWNER_FIELDS) {
        expect(mayChange(who, who, { field })).toEqual({
          allowed: true,
          needsCurrentPassword: true,
        });
      }
    }
  });
});

describe('field rules: roles', () => {
  it('given anybody, when it changes its own role, then it is refused', () => {
    for (const who of [superAdmin, admin, manager, grower]) {
      expect(mayChange(who, who, { field: 'role', to: 'ROLE_GROWER' })).toEqual({
        allowed: false,
        message: RULE_MESSAGES.ownRole,
      });
    }
  });

  it('given an admin or a cluster manager, when it assigns a role at or above its own, then it is refused; below, allowed', () => {
    expect(allowed(admin, grower, { field: 'role', to: 'ROLE_ADMIN' })).toBe(false);
    expect(allowed(admin, grower, { field: 'role', to: 'ROLE_SUPER_ADMIN' })).toBe(false);
    expect(allowed(admin, grower, { field: 'role', to: 'ROLE_CLUSTER_MANAGER' })).toBe(true);
    expect(allowed(manager, grower, { field: 'role', to: 'ROLE_CLUSTER_MANAGER' })).toBe(false);
    expect(allowed(manager, grower, { field: 'role', to: 'ROLE_ADMIN' })).toBe(false);
    expect(allowed(manager, grower, { field: 'role', to: 'ROLE_CARRIER' })).toBe(true);
  });

  it('given an admin, when it changes the role of another admin (its rank), then it is refused', () => {
    const other = p('ad2', 'ROLE_ADMIN', null);
    expect(mayChange(admin, other, { field: 'role', to: 'ROLE_GROWER' })).toEqual({
      allowed: false,
      message: RULE_MESSAGES.targetRank,
    });
  });

  it('given a cluster manager, when the user is out of its cluster, then it is refused (reach)', () => {
    expect(mayChange(manager, farAway, { field: 'role', to: 'ROLE_CARRIER' })).toEqual({
      allowed: false,
      message: RULE_MESSAGES.reach,
    });
  });

  it('given the super admin, when it assigns any role to someone else, then it is allowed', () => {
    expect(allowed(superAdmin, admin, { field: 'role', to: 'ROLE_SUPER_ADMIN' })).toBe(true);
    expect(mayAssignRole(superAdmin, 'ROLE_SUPER_ADMIN').allowed).toBe(true);
  });

  it('given a role outside the user managers, when it assigns a role, then it is refused', () => {
    expect(mayAssignRole(aggregator, 'ROLE_GROWER').allowed).toBe(false);
  });

  it('ranks: super admin > admin > cluster manager > every other role', () => {
    expect(rankOf('ROLE_SUPER_ADMIN')).toBeGreaterThan(rankOf('ROLE_ADMIN'));
    expect(rankOf('ROLE_ADMIN')).toBeGreaterThan(rankOf('ROLE_CLUSTER_MANAGER'));
    expect(rankOf('ROLE_CLUSTER_MANAGER')).toBeGreaterThan(rankOf('ROLE_SFD'));
    expect(rankOf('ROLE_ACCOUNTING')).toBe(rankOf('ROLE_GROWER'));
  });
});

describe('field rules: cluster, activation, deletion, names', () => {
  it('given an admin, when it moves a user to another cluster, then it is allowed; a cluster manager, refused', () => {
    expect(allowed(admin, grower, { field: 'cluster', to: 'B' })).toBe(true);
    expect(mayChange(manager, grower, { field: 'cluster', to: 'B' })).toEqual({
      allowed: false,
      message: RULE_MESSAGES.clusterByManager,
    });
  });

  it('given anybody, when it changes its own cluster, active state or deletes itself, then it is refused', () => {
    expect(allowed(admin, admin, { field: 'cluster', to: 'B' })).toBe(false);
    expect(allowed(manager, manager, { field: 'cluster', to: 'B' })).toBe(false);
    expect(allowed(admin, admin, { field: 'active' })).toBe(false);
    expect(mayDelete(admin, admin).allowed).toBe(false);
  });

  it('given a cluster manager, when it (de)activates or deletes a user of its cluster, then it is allowed; of another, refused', () => {
    expect(allowed(manager, grower, { field: 'active' })).toBe(true);
    expect(mayDelete(manager, grower).allowed).toBe(true);
    expect(allowed(manager, farAway, { field: 'active' })).toBe(false);
    expect(mayDelete(manager, farAway).allowed).toBe(false);
  });

  it('given a user in reach or oneself, when names change, then it is allowed without password; out of reach, the organisation, refused', () => {
    expect(mayChange(manager, grower, { field: 'firstname' })).toEqual({
      allowed: true,
      needsCurrentPassword: false,
    });
    expect(allowed(grower, grower, { field: 'lastname' })).toBe(true);
    expect(allowed(manager, farAway, { field: 'organization', to: 'O' })).toBe(false);
  });
});

describe('field rules: an aggregator or an SFD and its organisation’s staff', () => {
  const inOrg = (id: string, role: RoleCode, organizationId: string | null): Party => ({
    id,
    role,
    clusterId: 'A',
    organizationId,
  });
  const managers = [inOrg('ag', 'ROLE_INDUSTRIAL', 'O'), inOrg('sfd', 'ROLE_SFD', 'O')];
  const secretary = inOrg('se', 'ROLE_SECRETARY', 'O');
  const foreign = inOrg('fo', 'ROLE_SECRETARY', 'P');

  it('given its staff, when it changes names, a staff role or the active state, or deletes, then it is allowed', () => {
    for (const m of managers) {
      expect(allowed(m, secretary, { field: 'firstname' })).toBe(true);
      expect(allowed(m, secretary, { field: 'active' })).toBe(true);
      expect(mayDelete(m, secretary).allowed).toBe(true);
      for (const to of ['ROLE_ACCOUNTING', 'ROLE_DIRECTOR'] as const) {
        expect(allowed(m, secretary, { field: 'role', to })).toBe(true);
      }
    }
  });

  it('given its staff, when it gives a non-staff role, moves it out of its organisation or cluster, or touches its owner fields, then it is refused', () => {
    for (const m of managers) {
      expect(mayChange(m, secretary, { field: 'role', to: 'ROLE_GROWER' })).toEqual({
        allowed: false,
        message: RULE_MESSAGES.staffRoles,
      });
      expect(allowed(m, secretary, { field: 'role', to: 'ROLE_INDUSTRIAL' })).toBe(false);
      expect(mayChange(m, secretary, { field: 'organization', to: 'P' })).toEqual({
        allowed: false,
        message: RULE_MESSAGES.organizationByManager,
      });
      expect(mayChange(m, secretary, { field: 'cluster', to: 'B' })).toEqual({
        allowed: false,
        message: RULE_MESSAGES.clusterByOrganization,
      });
      for (const field of OWNER_FIELDS) expect(allowed(m, secretary, { field })).toBe(false);
    }
  });

  it('given staff of another organisation, a grower, or no organisation of its own, then it reaches nobody', () => {
    for (const m of managers) {
      expect(mayChange(m, foreign, { field: 'firstname' })).toEqual({
        allowed: false,
        message: RULE_MESSAGES.reach,
      });
      expect(allowed(m, grower, { field: 'firstname' })).toBe(false);
      expect(mayDelete(m, foreign).allowed).toBe(false);
      const alone = { ...m, organizationId: null };
      expect(allowed(alone, inOrg('x', 'ROLE_SECRETARY', null), { field: 'firstname' })).toBe(
        false,
      );
    }
  });

  it('given anybody, when it changes its own organisation, then it is refused (an organisation gives reach over its staff)', () => {
    for (const who of [...managers, superAdmin, admin, grower]) {
      expect(mayChange(who, who, { field: 'organization', to: 'P' })).toEqual({
        allowed: false,
        message: RULE_MESSAGES.ownOrganization,
      });
    }
  });

  it('given an aggregator or an SFD, when it creates a user, then only staff roles, in its own organisation and cluster', () => {
    for (const m of managers) {
      expect(mayCreate(m, 'ROLE_SECRETARY', null).allowed).toBe(true);
      expect(mayCreate(m, 'ROLE_DIRECTOR', null, 'O').allowed).toBe(true);
      expect(mayCreate(m, 'ROLE_DIRECTOR', null, 'P').allowed).toBe(false);
      expect(mayCreate(m, 'ROLE_GROWER', null).allowed).toBe(false);
      expect(organizationOfNewUser(m, 'P')).toBe('O');
      expect(clusterOfNewUser(m, 'B')).toBe('A');
      expect(mayCreate({ ...m, organizationId: null }, 'ROLE_SECRETARY', null)).toEqual({
        allowed: false,
        message: RULE_MESSAGES.noOrganization,
      });
    }
  });

  it('given a cluster manager without a cluster, when it creates a user, then the refusal says a cluster is missing', () => {
    expect(mayCreate(p('cm0', 'ROLE_CLUSTER_MANAGER', null), 'ROLE_GROWER', null)).toEqual({
      allowed: false,
      message: RULE_MESSAGES.noCluster,
    });
  });
});

describe('field rules: creation', () => {
  it('given a cluster manager, when it creates a user, then only below its rank and in its own cluster', () => {
    expect(mayCreate(manager, 'ROLE_GROWER', null).allowed).toBe(true);
    expect(mayCreate(manager, 'ROLE_GROWER', 'A').allowed).toBe(true);
    expect(mayCreate(manager, 'ROLE_GROWER', 'B').allowed).toBe(false);
    expect(mayCreate(manager, 'ROLE_CLUSTER_MANAGER', null).allowed).toBe(false);
    expect(clusterOfNewUser(manager, null)).toBe('A');
  });

  it('given an admin, when it creates an admin, then it is refused; a cluster manager, allowed', () => {
    expect(mayCreate(admin, 'ROLE_ADMIN', null).allowed).toBe(false);
    expect(mayCreate(admin, 'ROLE_CLUSTER_MANAGER', 'B').allowed).toBe(true);
    expect(clusterOfNewUser(admin, 'B')).toBe('B');
  });
});

describe('field rules: the platform’s auditor is the super admin’s to make', () => {
  const refused = { allowed: false, message: RULE_MESSAGES.platformAuditor };
  const accountant = (organizationId: string | null): Party => ({
    id: 'ac',
    role: 'ROLE_ACCOUNTING',
    clusterId: 'A',
    organizationId,
  });

  it('given an admin or a cluster manager, when it creates an accountant without an organisation, then it is refused; with one, allowed', () => {
    for (const actor of [admin, manager]) {
      expect(mayCreate(actor, 'ROLE_ACCOUNTING', null, null)).toEqual(refused);
      expect(mayCreate(actor, 'ROLE_ACCOUNTING', null, 'O').allowed).toBe(true);
      // Other roles need no organisation.
      expect(mayCreate(actor, 'ROLE_SECRETARY', null, null).allowed).toBe(true);
    }
  });

  it('given the super admin, when it creates the platform auditor, then it is allowed', () => {
    expect(mayCreate(superAdmin, 'ROLE_ACCOUNTING', null, null).allowed).toBe(true);
  });

  it('given an aggregator or an SFD, when it creates an accountant, then it is its organisation’s', () => {
    const m: Party = { id: 'ag', role: 'ROLE_INDUSTRIAL', clusterId: 'A', organizationId: 'O' };
    expect(mayCreate(m, 'ROLE_ACCOUNTING', null, null).allowed).toBe(true);
    expect(organizationOfNewUser(m, null)).toBe('O');
  });

  it('given a user without an organisation, when an admin or a cluster manager makes it an accountant, then it is refused unless the same request gives it an organisation', () => {
    for (const actor of [admin, manager]) {
      expect(mayChange(actor, grower, { field: 'role', to: 'ROLE_ACCOUNTING' })).toEqual(refused);
      expect(
        allowed(actor, grower, { field: 'role', to: 'ROLE_ACCOUNTING', organizationId: 'O' }),
      ).toBe(true);
      const secretary = { ...grower, role: 'ROLE_SECRETARY' as const, organizationId: 'O' };
      expect(allowed(actor, secretary, { field: 'role', to: 'ROLE_ACCOUNTING' })).toBe(true);
      expect(
        mayChange(actor, secretary, { field: 'role', to: 'ROLE_ACCOUNTING', organizationId: null }),
      ).toEqual(refused);
    }
    expect(allowed(superAdmin, grower, { field: 'role', to: 'ROLE_ACCOUNTING' })).toBe(true);
  });

  it('given an organisation’s accountant, when an admin or a cluster manager takes it out of its organisation, then it is refused; the super admin may', () => {
    for (const actor of [admin, manager]) {
      expect(mayChange(actor, accountant('O'), { field: 'organization', to: null })).toEqual(
        refused,
      );
      expect(allowed(actor, accountant('O'), { field: 'organization', to: 'P' })).toBe(true);
      // Out of the organisation as it becomes a secretary: no auditor is made.
      expect(
        allowed(actor, accountant('O'), {
          field: 'organization',
          to: null,
          role: 'ROLE_SECRETARY',
        }),
      ).toBe(true);
    }
    expect(allowed(superAdmin, accountant('O'), { field: 'organization', to: null })).toBe(true);
  });
});

describe('field rules: staff edits of members (mayEditMember)', () => {
  const cooperative = p('co', 'ROLE_FARMER_ORGANIZATION', 'A');
  const supplier = p('su', 'ROLE_INPUT_PROVIDER', 'A');

  it('given staff in reach, when it edits a grower’s or carrier’s names, NIP, phone or e-mail, then it is allowed', () => {
    for (const actor of [superAdmin, admin, manager]) {
      for (const target of [grower, carrier]) {
        for (const field of MEMBER_EDIT_FIELDS) {
          expect(mayEditMember(actor, target, field), `${actor.role} ${field}`).toEqual({
            allowed: true,
            needsCurrentPassword: false,
          });
        }
      }
    }
  });

  it('given a cooperative’s or supplier’s representative (who signs in), when staff edit its e-mail or phone, then refused; its names and NIP are allowed', () => {
    for (const target of [cooperative, supplier]) {
      for (const field of ['email', 'phone'] as const) {
        expect(mayEditMember(admin, target, field)).toEqual({
          allowed: false,
          message: RULE_MESSAGES.memberOwnerOnly,
        });
      }
      for (const field of ['firstname', 'lastname', 'nip'] as const) {
        expect(mayEditMember(admin, target, field).allowed).toBe(true);
      }
    }
  });

  it('given a cluster manager, when the member is of another cluster, then refused (reach)', () => {
    expect(mayEditMember(manager, farAway, 'firstname')).toEqual({
      allowed: false,
      message: RULE_MESSAGES.reach,
    });
  });

  it('given a staff target (not a member) or oneself, then refused', () => {
    expect(mayEditMember(superAdmin, aggregator, 'firstname')).toEqual({
      allowed: false,
      message: RULE_MESSAGES.notMember,
    });
    expect(mayEditMember(grower, grower, 'firstname')).toEqual({
      allowed: false,
      message: RULE_MESSAGES.ownMember,
    });
  });

  it('given an aggregator or a grower, when it edits a member, then refused (no reach)', () => {
    for (const actor of [aggregator, grower]) {
      expect(mayEditMember(actor, carrier, 'lastname').allowed).toBe(false);
    }
  });

  it('never offers a payout account among the editable fields', () => {
    expect(MEMBER_EDIT_FIELDS).not.toContain('momoAccountNumber');
    expect(MEMBER_EDIT_FIELDS).not.toContain('bankAccountNumber');
  });
});

describe('field rules: PIN reset (mayResetPin)', () => {
  it('given the grower’s cluster manager, then allowed', () => {
    expect(mayResetPin(manager, grower)).toEqual({ allowed: true, needsCurrentPassword: false });
  });

  it('given any other role — the super admin too — then refused', () => {
    for (const actor of [superAdmin, admin, aggregator, grower]) {
      expect(mayResetPin(actor, grower)).toEqual({
        allowed: false,
        message: RULE_MESSAGES.pinByManager,
      });
    }
  });

  it('given a grower of another cluster, a carrier, or a manager without cluster, then refused', () => {
    expect(mayResetPin(manager, farAway)).toEqual({ allowed: false, message: RULE_MESSAGES.reach });
    expect(mayResetPin(manager, carrier)).toEqual({
      allowed: false,
      message: RULE_MESSAGES.pinGrowerOnly,
    });
    expect(mayResetPin(p('cm0', 'ROLE_CLUSTER_MANAGER', null), grower)).toEqual({
      allowed: false,
      message: RULE_MESSAGES.noCluster,
    });
  });
});
