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
