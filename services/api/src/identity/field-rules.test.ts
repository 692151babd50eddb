import { describe, expect, it } from 'vitest';
import type { RoleCode } from '../http/auth.js';
import {
  clusterOfNewUser,
  mayAssignRole,
  mayChange,
  mayCreate,
  mayDelete,
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
    expect(allowed(manager, farAway, { field: 'organization' })).toBe(false);
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
      expect(mayChange(m, secretary, { field: 'organization' })).toEqual({
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
      expect(mayChange(who, who, { field: 'organization' })).toEqual({
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
