/**
 * The role codes and organisation types every context and the HTTP plumbing speak of: one
 * typed list each, below the contexts (the spec's 12 roles; identity owns their names and ids).
 */
/** The 12 role codes of the spec. */
export const ROLE_CODES = [
  'ROLE_SUPER_ADMIN',
  'ROLE_ADMIN',
  'ROLE_GROWER',
  'ROLE_CARRIER',
  'ROLE_INDUSTRIAL',
  'ROLE_SECRETARY',
  'ROLE_ACCOUNTING',
  'ROLE_DIRECTOR',
  'ROLE_INPUT_PROVIDER',
  'ROLE_FARMER_ORGANIZATION',
  'ROLE_CLUSTER_MANAGER',
  'ROLE_SFD',
] as const;
export type RoleCode = (typeof ROLE_CODES)[number];

/**
 * The role codes by name, for code that speaks of one role: `ROLE.SUPER_ADMIN` instead of a
 * bare `'ROLE_SUPER_ADMIN'`, so that a typo is a compile error. The `satisfies` makes the
 * table exact: every code has its key (its name without `ROLE_`), and nothing else.
 */
export const ROLE = {
  SUPER_ADMIN: 'ROLE_SUPER_ADMIN',
  ADMIN: 'ROLE_ADMIN',
  GROWER: 'ROLE_GROWER',
  CARRIER: 'ROLE_CARRIER',
  INDUSTRIAL: 'ROLE_INDUSTRIAL',
  SECRETARY: 'ROLE_SECRETARY',
  ACCOUNTING: 'ROLE_ACCOUNTING',
  DIRECTOR: 'ROLE_DIRECTOR',
  INPUT_PROVIDER: 'ROLE_INPUT_PROVIDER',
  FARMER_ORGANIZATION: 'ROLE_FARMER_ORGANIZATION',
  CLUSTER_MANAGER: 'ROLE_CLUSTER_MANAGER',
  SFD: 'ROLE_SFD',
} as const satisfies { [K in RoleCode as K extends `ROLE_${infer N}` ? N : never]: K };

export const ORGANIZATION_TYPES = [
  'BANK',
  'INDUSTRIAL',
  'MICROFINANCE',
  'PROVIDER',
  'COOPERATIVE',
  'INTERNATIONAL_TRADER',
  'PAYMENT_PROVIDER',
] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];
