import { describe, expect, it } from 'vitest';
import {
  clusterOfNewSupplier,
  listScope,
  mayManageInactive,
  mayRead,
  mayWrite,
  type Viewer,
} from './reach.js';

const A = 'cluster-a';
const B = 'cluster-b';
const v = (role: Viewer['role'], clusterId: string | null = A, id = 'me'): Viewer => ({
  id,
  role,
  clusterId,
});

describe('input suppliers: who sees and changes which', () => {
  it('given administrators, then every supplier, read and write', () => {
    for (const role of ['ROLE_SUPER_ADMIN', 'ROLE_ADMIN'] as const) {
      expect(listScope(v(role, null))).toEqual({ kind: 'all' });
      expect(mayRead(v(role, null), { clusterId: B, userId: 'x' })).toBe(true);
      expect(mayWrite(v(role, null), B)).toBe(true);
      expect(clusterOfNewSupplier(v(role, null), B)).toEqual({ clusterId: B });
      expect(clusterOfNewSupplier(v(role, null), undefined)).toEqual({ clusterId: null });
    }
  });

  it('given a cluster manager, then its cluster only; a new supplier goes into it', () => {
    const manager = v('ROLE_CLUSTER_MANAGER');
    expect(listScope(manager)).toEqual({ kind: 'cluster', clusterId: A });
    expect(mayRead(manager, { clusterId: B, userId: 'x' })).toBe(false);
    expect(mayWrite(manager, A)).toBe(true);
    expect(mayWrite(manager, B)).toBe(false);
    expect(mayWrite(manager, null)).toBe(false);
    expect(clusterOfNewSupplier(manager, undefined)).toEqual({ clusterId: A });
    expect(clusterOfNewSupplier(manager, B)).toMatchObject({ refused: expect.any(String) });
  });

  it('given a manager without cluster, then refused with NO_CLUSTER', () => {
    expect(listScope(v('ROLE_CLUSTER_MANAGER', null))).toMatchObject({
      kind: 'refused',
      reason: 'NO_CLUSTER',
    });
    expect(clusterOfNewSupplier(v('ROLE_CLUSTER_MANAGER', null), A)).toMatchObject({
      reason: 'NO_CLUSTER',
    });
  });

  it('given the aggregator, then it reads its cluster’s suppliers and changes none', () => {
    const aggregator = v('ROLE_INDUSTRIAL');
    expect(mayRead(aggregator, { clusterId: A, userId: 'x' })).toBe(true);
    expect(mayWrite(aggregator, A)).toBe(false);
    expect(clusterOfNewSupplier(aggregator, A)).toMatchObject({ refused: expect.any(String) });
  });

  it('given the supplier itself, then it reads its own record only; others nothing', () => {
    expect(mayRead(v('ROLE_INPUT_PROVIDER', null, 'u1'), { clusterId: A, userId: 'u1' })).toBe(
      true,
    );
    expect(mayRead(v('ROLE_INPUT_PROVIDER', A, 'u1'), { clusterId: A, userId: 'u2' })).toBe(false);
    expect(listScope(v('ROLE_GROWER'))).toMatchObject({ kind: 'refused' });
  });

  it('the deactivated: the super admin only', () => {
    expect(mayManageInactive(v('ROLE_SUPER_ADMIN'))).toBe(true);
    expect(mayManageInactive(v('ROLE_ADMIN'))).toBe(false);
  });
});
