import { describe, expect, it } from 'vitest';
import type { Role, User } from '../../../shared/auth/user.js';
import {
  ACCOUNTANT_ORGANIZATION,
  assignableRoles,
  formFieldsFor,
  missingScopeOf,
  toCreateInput,
  toEditInput,
  organizationRequired,
  toFormValues,
  userEditSchema,
  userFormSchema,
  userFormSchemaFor,
} from './user-form.js';

/** `GET /role` as the API answers it: numeric ids. */
const ROLES: Role[] = [
  { id: 1, name: 'Super administrateur', code: 'ROLE_SUPER_ADMIN' },
  { id: 2, name: 'Administrateur', code: 'ROLE_ADMIN' },
  { id: 3, name: 'Producteur', code: 'ROLE_GROWER' },
  { id: 5, name: 'Agrégateur', code: 'ROLE_INDUSTRIAL' },
  { id: 6, name: 'Secrétaire', code: 'ROLE_SECRETARY' },
  { id: 7, name: 'Comptable', code: 'ROLE_ACCOUNTING' },
  { id: 8, name: 'Directeur', code: 'ROLE_DIRECTOR' },
  { id: 11, name: 'Gestionnaire de cluster', code: 'ROLE_CLUSTER_MANAGER' },
];

const user: User = {
  id: 'u1',
  firstname: 'Basile',
  lastname: 'Ahouandjinou',
  email: 'basile@exemple.bj',
  username: 'basile@exemple.bj',
  phone: '+2290167000008',
  nip: null,
  role: ROLES[2]!,
  roleId: 3,
  organization: null,
  organizationId: null,
  walletId: 'w1',
  clusterId: 'c1',
  momoAccountNumber: null,
  bankAccountNumber: null,
  isActive: true,
  createdAt: '2026-11-21T10:00:00.000Z',
};

describe('the user form model', () => {
  it('a user whose role id is a number (as the API sends it) gives valid edit values', () => {
    const values = toFormValues(user);
    expect(values.roleId).toBe('3');
    expect(userEditSchema.safeParse(values).success).toBe(true);
    expect(toEditInput(values, formFieldsFor('ROLE_SUPER_ADMIN'))).toEqual({
      firstname: 'Basile',
      lastname: 'Ahouandjinou',
      roleId: '3',
      organizationId: '',
      clusterId: 'c1',
    });
  });

  it('a new user with a role chosen in the select is valid and sends the role id and E.164 phone', () => {
    const values = {
      ...toFormValues(user),
      email: 'nouveau@exemple.bj',
      phone: '97000042',
      roleId: String(ROLES[2]!.id),
    };
    expect(userFormSchema.safeParse(values).success).toBe(true);
    expect(toCreateInput(values)).toMatchObject({ roleId: '3', phone: '+2290197000042' });
  });

  it('offers each manager the roles the field rules let it give', () => {
    const codes = (role: string) => assignableRoles(ROLES, role).map((r) => r.code);
    expect(codes('ROLE_SUPER_ADMIN')).toHaveLength(ROLES.length);
    expect(codes('ROLE_ADMIN')).not.toContain('ROLE_ADMIN');
    expect(codes('ROLE_ADMIN')).toContain('ROLE_CLUSTER_MANAGER');
    expect(codes('ROLE_CLUSTER_MANAGER')).not.toContain('ROLE_CLUSTER_MANAGER');
    for (const manager of ['ROLE_INDUSTRIAL', 'ROLE_SFD']) {
      expect(codes(manager)).toEqual(['ROLE_SECRETARY', 'ROLE_ACCOUNTING', 'ROLE_DIRECTOR']);
    }
    // The user's current role stays shown even when the editor may not give it.
    expect(assignableRoles(ROLES, 'ROLE_ADMIN', 2).map((r) => r.id)).toContain(2);
  });

  it('shows the cluster select to administrators only, the organisation to all but aggregators and SFDs', () => {
    expect(formFieldsFor('ROLE_SUPER_ADMIN')).toEqual({ organization: true, cluster: true });
    expect(formFieldsFor('ROLE_CLUSTER_MANAGER')).toEqual({ organization: true, cluster: false });
    expect(formFieldsFor('ROLE_INDUSTRIAL')).toEqual({ organization: false, cluster: false });
  });

  it('says what a manager lacks: a cluster, an organisation', () => {
    const cm = { role: { code: 'ROLE_CLUSTER_MANAGER' }, clusterId: null, organizationId: null };
    expect(missingScopeOf(cm)).toBe('noCluster');
    expect(missingScopeOf({ ...cm, clusterId: 'c1' })).toBeNull();
    expect(missingScopeOf({ ...cm, role: { code: 'ROLE_SFD' } })).toBe('noOrganization');
    expect(missingScopeOf({ ...cm, role: { code: 'ROLE_ADMIN' } })).toBeNull();
  });

  it('asks anybody but the super admin for the organisation of a Comptable (the platform auditor is the super admin’s)', () => {
    const newAccountant = {
      ...toFormValues(user),
      email: 'comptable@exemple.bj',
      phone: '97000043',
      roleId: '7',
      organizationId: '',
    };
    for (const role of ['ROLE_ADMIN', 'ROLE_CLUSTER_MANAGER']) {
      const parsed = userFormSchemaFor(true, ROLES, role).safeParse(newAccountant);
      expect(parsed.success, role).toBe(false);
      expect(parsed.error?.issues).toEqual([
        expect.objectContaining({ path: ['organizationId'], message: ACCOUNTANT_ORGANIZATION }),
      ]);
      const withOrganization = { ...newAccountant, organizationId: 'o1' };
      expect(userFormSchemaFor(true, ROLES, role).safeParse(withOrganization).success).toBe(true);
      // Other roles need none.
      const grower = { ...newAccountant, roleId: '3' };
      expect(userFormSchemaFor(true, ROLES, role).safeParse(grower).success).toBe(true);
    }
    expect(
      userFormSchemaFor(true, ROLES, 'ROLE_SUPER_ADMIN').safeParse(newAccountant).success,
    ).toBe(true);
    // An aggregator's or SFD's accountant is its own organisation's (the server sets it).
    expect(organizationRequired(newAccountant, ROLES, 'ROLE_SFD')).toBe(false);
    // Editing the platform auditor's names grants nothing; making a grower one does.
    const auditor = { ...newAccountant, roleId: '7', organizationId: '' };
    expect(organizationRequired(auditor, ROLES, 'ROLE_ADMIN', auditor)).toBe(false);
    const grower = toFormValues(user);
    expect(organizationRequired({ ...grower, roleId: '7' }, ROLES, 'ROLE_ADMIN', grower)).toBe(
      true,
    );
  });
});
