import { describe, expect, it } from 'vitest';
import { ROLE, ROLE_CODES, type RoleCode } from '../../../kernel/roles.js';
import {
  ACTOR_STAFF,
  ACTOR_WRITERS,
  mayManageInactiveCooperatives,
  mayWrite,
  mayReadOrganization,
  reaches,
  REACH_MESSAGES,
  staffScope,
  type Viewer,
} from './reach.js';

const viewer = (
  role: RoleCode,
  clusterId: string | null = 'c1',
  organizationId = null as string | null,
): Viewer => ({
  id: 'u1',
  role,
  clusterId,
  organizationId,
});

describe('actors reach (cooperatives and carriers)', () => {
  it('given a super admin or an admin, when it lists, then it sees every row (its cluster aside)', () => {
    expect(staffScope(viewer(ROLE.SUPER_ADMIN, null))).toEqual({ kind: 'all' });
    expect(staffScope(viewer(ROLE.ADMIN, 'c1'))).toEqual({ kind: 'all' });
    expect(reaches(viewer(ROLE.ADMIN, 'c1'), 'c2')).toBe(true);
  });

  it('given a cluster manager or an aggregator, when it lists, then only its cluster', () => {
    for (const role of [ROLE.CLUSTER_MANAGER, ROLE.INDUSTRIAL]) {
      expect(staffScope(viewer(role))).toEqual({ kind: 'cluster', clusterId: 'c1' });
      expect(reaches(viewer(role), 'c1')).toBe(true);
      expect(reaches(viewer(role), 'c2')).toBe(false);
      expect(reaches(viewer(role), null)).toBe(false);
    }
  });

  it('given a cluster manager without a cluster, then it is refused with what is missing', () => {
    expect(staffScope(viewer(ROLE.CLUSTER_MANAGER, null))).toEqual({
      kind: 'refused',
      message: REACH_MESSAGES.noCluster,
      reason: 'NO_CLUSTER',
    });
    expect(reaches(viewer(ROLE.INDUSTRIAL, null), null)).toBe(false);
  });

  it('given any other role, then nothing, even in the same cluster', () => {
    for (const role of ROLE_CODES.filter((r) => !ACTOR_STAFF.includes(r))) {
      expect(staffScope(viewer(role)).kind).toBe('refused');
      expect(reaches(viewer(role), 'c1')).toBe(false);
    }
  });

  it('given a cooperative representative, then it reads its own organisation only', () => {
    const coop = viewer(ROLE.FARMER_ORGANIZATION, 'c1', 'o1');
    expect(mayReadOrganization(coop, { id: 'o1', clusterId: 'c1' })).toBe(true);
    expect(mayReadOrganization(coop, { id: 'o2', clusterId: 'c1' })).toBe(false);
    expect(mayReadOrganization(viewer(ROLE.CLUSTER_MANAGER), { id: 'o2', clusterId: 'c1' })).toBe(
      true,
    );
    expect(mayReadOrganization(viewer(ROLE.GROWER), { id: 'o2', clusterId: 'c1' })).toBe(false);
  });

  it('given an aggregator, when it would register or edit, then no: it only reads its cluster', () => {
    expect(mayWrite(viewer(ROLE.INDUSTRIAL), 'c1')).toBe(false);
    expect(mayWrite(viewer(ROLE.CLUSTER_MANAGER), 'c1')).toBe(true);
    expect(mayWrite(viewer(ROLE.CLUSTER_MANAGER), 'c2')).toBe(false);
    expect(mayWrite(viewer(ROLE.ADMIN), 'c2')).toBe(true);
    expect(ROLE_CODES.filter((r) => mayWrite(viewer(r), 'c1'))).toEqual([...ACTOR_WRITERS]);
  });

  it('only the super admin manages deactivated cooperatives', () => {
    expect(ROLE_CODES.filter((r) => mayManageInactiveCooperatives(viewer(r)))).toEqual([
      ROLE.SUPER_ADMIN,
    ]);
  });
});
