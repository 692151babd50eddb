import { describe, expect, it } from 'vitest';
import { isStrongPassword } from './password.js';
import { mayAssignRole } from './field-rules.js';
import {
  canManageUser,
  canSeeUser,
  missingScope,
  userListScope,
  type Party,
} from './permissions.js';

const p = (id: string, role: Party['role'], clusterId: string | null = 'A'): Party => ({
  id,
  role,
  clusterId,
});

describe('ownership rules', () => {
  it('cluster manager: own cluster, never admins or other managers', () => {
    const cm = p('cm', 'ROLE_CLUSTER_MANAGER');
    expect(canManageUser(cm, p('g', 'ROLE_GROWER'))).toBe(true);
    expect(canManageUser(cm, p('g', 'ROLE_GROWER', 'B'))).toBe(false);
    expect(canManageUser(cm, p('a', 'ROLE_ADMIN'))).toBe(false);
    expect(canManageUser(cm, p('cm2', 'ROLE_CLUSTER_MANAGER'))).toBe(false);
    expect(canManageUser(p('cm', 'ROLE_CLUSTER_MANAGER', null), p('g', 'ROLE_GROWER', null))).toBe(
      false,
    );
    expect(userListScope(p('cm', 'ROLE_CLUSTER_MANAGER', null))).toBeNull();
  });

  it('admin: all but super admins; super admin role granted only by a super admin', () => {
    const admin = p('a', 'ROLE_ADMIN');
    expect(canManageUser(admin, p('s', 'ROLE_SUPER_ADMIN'))).toBe(false);
    expect(canSeeUser(admin, p('g', 'ROLE_GROWER', 'Z'))).toBe(true);
    expect(mayAssignRole(admin, 'ROLE_SUPER_ADMIN').allowed).toBe(false);
    expect(mayAssignRole(p('s', 'ROLE_SUPER_ADMIN'), 'ROLE_SUPER_ADMIN').allowed).toBe(true);
  });

  it('aggregator and SFD: the secretary, accounting and director of their own organisation only', () => {
    const org = (id: string, role: Party['role'], organizationId: string | null): Party => ({
      id,
      role,
      clusterId: 'A',
      organizationId,
    });
    for (const manager of ['ROLE_INDUSTRIAL', 'ROLE_SFD'] as const) {
      const me = org('m', manager, 'O');
      for (const staff of ['ROLE_SECRETARY', 'ROLE_ACCOUNTING', 'ROLE_DIRECTOR'] as const) {
        expect(canManageUser(me, org('s', staff, 'O'))).toBe(true);
        expect(canManageUser(me, org('s', staff, 'P'))).toBe(false);
        expect(canManageUser(me, org('s', staff, null))).toBe(false);
      }
      expect(canManageUser(me, org('g', 'ROLE_GROWER', 'O'))).toBe(false);
      expect(canManageUser(me, org('i', 'ROLE_INDUSTRIAL', 'O'))).toBe(false);
      expect(canManageUser(org('m', manager, null), org('s', 'ROLE_SECRETARY', null))).toBe(false);
      expect(userListScope(me)).toMatchObject({ organizationId: 'O' });
      expect(userListScope(me)!.excludeRoles).not.toContain('ROLE_DIRECTOR');
      expect(userListScope(me)!.excludeRoles).toContain('ROLE_INDUSTRIAL');
      expect(userListScope(org('m', manager, null))).toBeNull();
      expect(missingScope(org('m', manager, null))).toBe('NO_ORGANIZATION');
    }
    expect(missingScope(p('cm', 'ROLE_CLUSTER_MANAGER', null))).toBe('NO_CLUSTER');
    expect(missingScope(p('cm', 'ROLE_CLUSTER_MANAGER'))).toBeUndefined();
  });

  it('others see only themselves', () => {
    expect(canSeeUser(p('g', 'ROLE_GROWER'), p('g', 'ROLE_GROWER'))).toBe(true);
    expect(canSeeUser(p('g', 'ROLE_GROWER'), p('h', 'ROLE_GROWER'))).toBe(false);
    expect(userListScope(p('i', 'ROLE_INDUSTRIAL'))).toBeNull();
  });
});

describe('password rule', () => {
  it('needs 8 characters, an uppercase letter, a digit and one of #?*+/@!', () => {
    expect(isStrongPassword('Demo#2026')).toBe(true);
    for (const weak of ['Dem#202', 'demo#2026', 'Demo#demo', 'Demo2026', 'Demo$2026']) {
      expect(isStrongPassword(weak), weak).toBe(false);
    }
  });
});
