import { describe, expect, it } from 'vitest';
import type { RoleCode } from '../../../kernel/roles.js';
import {
  checkProposal,
  describeAccount,
  mayDecide,
  mayRequest,
  numbersToTell,
  PAYOUT_MESSAGES,
  type PayoutAccount,
  type Staff,
} from './payout-request.js';

const staff = (id: string, role: RoleCode, clusterId: string | null = 'A'): Staff => ({
  id,
  role,
  clusterId,
});
const superAdmin = staff('sa', 'ROLE_SUPER_ADMIN', null);
const otherSuperAdmin = staff('sa2', 'ROLE_SUPER_ADMIN', null);
const admin = staff('ad', 'ROLE_ADMIN', null);
const clusterAdmin = staff('ad2', 'ROLE_ADMIN', 'A');
const manager = staff('cm', 'ROLE_CLUSTER_MANAGER', 'A');
const grower = { id: 'gr', role: 'ROLE_GROWER' as const, clusterId: 'A' };
const farGrower = { id: 'gr2', role: 'ROLE_GROWER' as const, clusterId: 'B' };
const account: PayoutAccount = {
  momoAccountNumber: '+2290197000001',
  bankName: null,
  bankAccountNumber: null,
};

describe('payout requests: who asks', () => {
  it('given the super admin, an admin without cluster, or the member’s cluster manager, when they ask, then it is allowed', () => {
    for (const actor of [superAdmin, admin, clusterAdmin, manager]) {
      expect(mayRequest(actor, grower), actor.role).toEqual({ allowed: true });
    }
  });

  it('given a cluster manager or a cluster’s admin, when the member is of another cluster, then 403 out of reach', () => {
    for (const actor of [manager, clusterAdmin]) {
      expect(mayRequest(actor, farGrower)).toMatchObject({
        allowed: false,
        status: 403,
        message: PAYOUT_MESSAGES.outOfReach,
      });
    }
    expect(mayRequest(superAdmin, farGrower).allowed).toBe(true);
  });

  it('given a cluster manager without a cluster, then 403 NO_CLUSTER', () => {
    expect(mayRequest(staff('cm0', 'ROLE_CLUSTER_MANAGER', null), grower)).toMatchObject({
      status: 403,
      reason: 'NO_CLUSTER',
    });
  });

  it('given any other role (an aggregator, a cooperative, the grower itself), then 403', () => {
    for (const role of [
      'ROLE_INDUSTRIAL',
      'ROLE_SFD',
      'ROLE_FARMER_ORGANIZATION',
      'ROLE_GROWER',
      'ROLE_ACCOUNTING',
    ] as const) {
      expect(mayRequest(staff('x', role), grower)).toMatchObject({ status: 403 });
    }
  });

  it('given a target that is staff, not a member, then 403 NOT_MEMBER', () => {
    expect(
      mayRequest(superAdmin, { id: 'x', role: 'ROLE_CLUSTER_MANAGER', clusterId: 'A' }),
    ).toMatchObject({ status: 403, reason: 'NOT_MEMBER' });
  });
});

describe('payout requests: what is asked', () => {
  it('given the current account, when the same account is asked, then 400 identical', () => {
    expect(checkProposal(account, { ...account })).toMatchObject({
      status: 400,
      message: PAYOUT_MESSAGES.identical,
    });
  });

  it('given a bank name without a number (or the reverse), then 400', () => {
    expect(checkProposal(account, { ...account, bankName: 'Ecobank Bénin' })).toMatchObject({
      status: 400,
      reason: 'BANK_INCOMPLETE',
    });
    expect(checkProposal(account, { ...account, bankAccountNumber: 'BJ01' })).toMatchObject({
      status: 400,
    });
  });

  it('given a new mobile money number, or a bank added, then it is allowed', () => {
    expect(checkProposal(account, { ...account, momoAccountNumber: '+2290166000001' })).toEqual({
      allowed: true,
    });
    expect(
      checkProposal(account, { ...account, bankName: 'Orabank Bénin', bankAccountNumber: 'BJ01' }),
    ).toEqual({ allowed: true });
  });
});

describe('payout requests: who decides (four eyes)', () => {
  const pending = { status: 'PENDING' as const, requestedBy: manager.id };

  it('given a super admin who did not ask, when it decides a pending request, then it is allowed', () => {
    expect(mayDecide(superAdmin, pending)).toEqual({ allowed: true });
  });

  it('given the super admin who asked, when it decides its own request, then 403 FOUR_EYES', () => {
    expect(mayDecide(superAdmin, { ...pending, requestedBy: superAdmin.id })).toMatchObject({
      status: 403,
      reason: 'FOUR_EYES',
      message: PAYOUT_MESSAGES.ownRequest,
    });
    expect(mayDecide(otherSuperAdmin, { ...pending, requestedBy: superAdmin.id }).allowed).toBe(
      true,
    );
  });

  it('given an admin or a cluster manager, when it decides, then 403: super admins only', () => {
    for (const actor of [admin, manager]) {
      expect(mayDecide(actor, pending)).toMatchObject({ status: 403, reason: 'FORBIDDEN' });
    }
  });

  it('given a request already approved or rejected, when decided again, then 409', () => {
    for (const status of ['APPROVED', 'REJECTED'] as const) {
      expect(mayDecide(superAdmin, { ...pending, status })).toMatchObject({
        status: 409,
        message: PAYOUT_MESSAGES.decided,
      });
    }
  });
});

describe('payout requests: who is told by SMS', () => {
  it('given an old and a new mobile money number, then both, once each', () => {
    expect(numbersToTell('+1', '+9', '+2')).toEqual(['+1', '+2']);
    expect(numbersToTell('+1', '+9', '+1')).toEqual(['+1']);
  });

  it('given no mobile money account (paid on the phone), then the phone and the new number', () => {
    expect(numbersToTell(null, '+9', '+2')).toEqual(['+9', '+2']);
  });

  it('describes an account with masked numbers', () => {
    const mask = (v: string | null) => `••${v!.slice(-2)}`;
    expect(
      describeAccount(
        { momoAccountNumber: '+22901', bankName: 'Ecobank Bénin', bankAccountNumber: 'BJ0042' },
        mask,
      ),
    ).toBe('mobile money ••01, Ecobank Bénin ••42');
  });
});
