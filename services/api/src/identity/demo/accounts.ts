import type { RoleCode } from '../../kernel/roles.js';

/** The fixed demo accounts (docs and checks rely on them). Never loaded in production. */
export const DEMO_PASSWORD = 'Demo#2026';

/**
 * The demo accounts that stand for an actor's record: the Allada cooperative's representative
 * and one of its growers. The actors' demo registers them through the real routes (the
 * cooperative with its organisation, the grower with its plots) and gives them the demo
 * password; identity's own step does not create them.
 */
export const DEMO_COOPERATIVE_EMAIL = 'cooperative@demo.filiere.bj';
export const DEMO_GROWER_EMAIL = 'producteur@demo.filiere.bj';

export const demoAccounts = [
  { email: 'superadmin@demo.filiere.bj', role: 'ROLE_SUPER_ADMIN', label: 'Super administrateur' },
  { email: 'admin@demo.filiere.bj', role: 'ROLE_ADMIN', label: 'Administrateur' },
  { email: 'agregateur@demo.filiere.bj', role: 'ROLE_INDUSTRIAL', label: 'Agrégateur' },
  {
    email: 'fournisseur@demo.filiere.bj',
    role: 'ROLE_INPUT_PROVIDER',
    label: 'Fournisseur d’intrants',
  },
  { email: DEMO_COOPERATIVE_EMAIL, role: 'ROLE_FARMER_ORGANIZATION', label: 'Coopérative' },
  {
    email: 'gestionnaire@demo.filiere.bj',
    role: 'ROLE_CLUSTER_MANAGER',
    label: 'Gestionnaire de cluster',
  },
  { email: 'sfd@demo.filiere.bj', role: 'ROLE_SFD', label: 'SFD (microfinance)' },
  { email: DEMO_GROWER_EMAIL, role: 'ROLE_GROWER', label: 'Producteur' },
  // The platform's auditor: ROLE_ACCOUNTING outside any organisation.
  {
    email: 'auditeur@demo.filiere.bj',
    role: 'ROLE_ACCOUNTING',
    label: 'Auditeur de la plateforme',
  },
] as const satisfies readonly { email: string; role: RoleCode; label: string }[];
