import type { RoleCode } from '../kernel/roles.js';

/** The 12 roles with their French names; ids are fixed so seeds and clients agree. */
export const ROLES: ReadonlyArray<{ id: number; code: RoleCode; name: string }> = [
  { id: 1, code: 'ROLE_SUPER_ADMIN', name: 'Super administrateur' },
  { id: 2, code: 'ROLE_ADMIN', name: 'Administrateur' },
  { id: 3, code: 'ROLE_GROWER', name: 'Producteur' },
  { id: 4, code: 'ROLE_CARRIER', name: 'Transporteur' },
  { id: 5, code: 'ROLE_INDUSTRIAL', name: 'Agrégateur' },
  { id: 6, code: 'ROLE_SECRETARY', name: 'Secrétaire' },
  { id: 7, code: 'ROLE_ACCOUNTING', name: 'Comptable' },
  { id: 8, code: 'ROLE_DIRECTOR', name: 'Directeur' },
  { id: 9, code: 'ROLE_INPUT_PROVIDER', name: 'Fournisseur d’intrants' },
  { id: 10, code: 'ROLE_FARMER_ORGANIZATION', name: 'Organisation de producteurs' },
  { id: 11, code: 'ROLE_CLUSTER_MANAGER', name: 'Gestionnaire de cluster' },
  { id: 12, code: 'ROLE_SFD', name: 'SFD' },
];

export { ORGANIZATION_TYPES, type OrganizationType } from '../kernel/roles.js';

export function roleIdOf(code: RoleCode): number {
  return ROLES.find((r) => r.code === code)!.id;
}
