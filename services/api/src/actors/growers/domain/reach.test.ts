import { describe, expect, it } from 'vitest';
import { ROLE, type RoleCode } from '../../../kernel/roles.js';
import {
  growerScope,
  mayBan,
  mayManageGrower,
  mayReadCluster,
  mayReadGrower,
  mayRegisterIn,
  maySeeInactive,
  maySeePayout,
  showsCooperative,
  type GrowerActor,
} from './reach.js';

const A = 'cluster-a';
const B = 'cluster-b';
const COOP = 'coop-1';
const actor = (role: RoleCode, over: Partial<GrowerActor> = {}): GrowerActor => ({
  id: 'me',
  role,
  clusterId: A,
  organizationId: null,
  ...over,
});
const ofA = { clusterId: A, cooperativeId: COOP };
const ofB = { clusterId: B, cooperativeId: 'coop-2' };

describe('growers reach (spec §6)', () => {
  it('given the super admin, when it reads or edits, then every grower of every cluster', () => {
    const sa = actor(ROLE.SUPER_ADMIN, { clusterId: null });
    expect(growerScope(sa)).toEqual({ kind: 'all' });
    expect(mayReadGrower(sa, ofB)).toBe(true);
    expect(mayManageGrower(sa, ofB)).toBe(true);
    expect(mayBan(sa)).toBe(true);
    expect(maySeeInactive(sa)).toBe(true);
  });

  it('given an admin, when it has no cluster then all, with a cluster then that cluster only', () => {
    expect(mayReadGrower(actor(ROLE.ADMIN, { clusterId: null }), ofB)).toBe(true);
    expect(mayReadGrower(actor(ROLE.ADMIN), ofB)).toBe(false);
    expect(mayManageGrower(actor(ROLE.ADMIN), ofA)).toBe(true);
    expect(mayBan(actor(ROLE.ADMIN))).toBe(false);
  });

  it('given a cluster manager, when the grower is of another cluster, then neither read nor edit', () => {
    const cm = actor(ROLE.CLUSTER_MANAGER);
    expect(mayReadGrower(cm, ofA)).toBe(true);
    expect(mayManageGrower(cm, ofA)).toBe(true);
    expect(mayRegisterIn(cm, A)).toBe(true);
    expect(mayReadGrower(cm, ofB)).toBe(false);
    expect(mayManageGrower(cm, ofB)).toBe(false);
    expect(mayRegisterIn(cm, B)).toBe(false);
    expect(mayReadCluster(cm, B)).toBe(false);
    expect(mayBan(cm)).toBe(false);
  });

  it('given a cluster manager without cluster, when it lists, then none, saying the cluster is missing', () => {
    expect(growerScope(actor(ROLE.CLUSTER_MANAGER, { clusterId: null }))).toEqual({
      kind: 'none',
      reason: 'NO_CLUSTER',
    });
  });

  it('given an aggregator or an SFD, when reading its cluster, then yes; editing, never', () => {
    for (const role of [ROLE.INDUSTRIAL, ROLE.SFD]) {
      expect(mayReadGrower(actor(role), ofA)).toBe(true);
      expect(mayReadGrower(actor(role), ofB)).toBe(false);
      expect(mayManageGrower(actor(role), ofA)).toBe(false);
      expect(maySeePayout(actor(role))).toBe(false);
    }
  });

  it('given a cooperative, when reading, then its own growers only, no cooperative column, no add', () => {
    const coop = actor(ROLE.FARMER_ORGANIZATION, { organizationId: COOP });
    expect(growerScope(coop)).toEqual({ kind: 'cooperative', cooperativeId: COOP });
    expect(mayReadGrower(coop, ofA)).toBe(true);
    expect(mayReadGrower(coop, { clusterId: A, cooperativeId: null })).toBe(false);
    expect(mayManageGrower(coop, ofA)).toBe(false);
    expect(mayRegisterIn(coop, A)).toBe(false);
    expect(showsCooperative(coop)).toBe(false);
    expect(maySeePayout(coop)).toBe(true);
    expect(growerScope(actor(ROLE.FARMER_ORGANIZATION))).toEqual({
      kind: 'none',
      reason: 'NO_ORGANIZATION',
    });
  });

  it('given the other roles, when they ask for growers, then nothing', () => {
    for (const role of [
      ROLE.GROWER,
      ROLE.CARRIER,
      ROLE.SECRETARY,
      ROLE.ACCOUNTING,
      ROLE.DIRECTOR,
      ROLE.INPUT_PROVIDER,
    ]) {
      expect(growerScope(actor(role))).toEqual({ kind: 'none', reason: 'ROLE' });
      expect(mayReadGrower(actor(role), ofA)).toBe(false);
    }
  });
});
