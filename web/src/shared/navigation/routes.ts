import { ROLES, type RoleCode } from '../auth/roles.js';

const {
  SUPER_ADMIN,
  ADMIN,
  GROWER,
  INDUSTRIAL,
  INPUT_PROVIDER,
  FARMER_ORGANIZATION,
  CLUSTER_MANAGER,
  SFD,
  CARRIER,
  ACCOUNTING,
} = ROLES;

export type NavGroupKey =
  'activities' | 'requests' | 'transactions' | 'contracts' | 'actors' | 'providers' | 'management';

export interface NavGroup {
  key: NavGroupKey;
  /** i18n key in the `nav` namespace. */
  label: string;
  /** The group's tag list: it shows only to these roles. */
  roles: RoleCode[];
}

export interface NavRoute {
  key: string;
  path: string;
  label: string;
  /** null: a top-level entry, or not a menu entry at all when `menu` is false. */
  group: NavGroupKey | null;
  /** Roles allowed on the route; 'all' = any signed-in user. */
  roles: RoleCode[] | 'all';
  /** Listed in the side navigation (detail and form routes are not). */
  menu: boolean;
  /**
   * Shown only to a user attached to a cluster: the screen configures it, and without one it
   * has nothing to offer (the super admin attaches the user to a cluster first).
   */
  needsCluster?: boolean;
  /** Hidden from users of a cooperative organisation (spec: the cooperatives child). */
  hiddenForCooperative?: boolean;
}

/** The groups of the side navigation, in display order, with the spec's tag lists. */
export const NAV_GROUPS: NavGroup[] = [
  // The input provider's only entry here is 'Demandes d'intrants' (its deliveries by code).
  {
    key: 'activities',
    label: 'groups.activities',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL, INPUT_PROVIDER],
  },
  // The growers' request lists are the aggregator's and the cooperative's work (the server
  // lists them to the handler and the cooperative, not to the input provider).
  { key: 'requests', label: 'groups.requests', roles: [INDUSTRIAL, FARMER_ORGANIZATION] },
  {
    key: 'transactions',
    label: 'groups.transactions',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL, INPUT_PROVIDER],
  },
  // The super admin and an admin read every aggregator's contracts (contracts' routes).
  { key: 'contracts', label: 'groups.contracts', roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL] },
  // The aggregator also sees Organisations paysannes and Transporteurs (spec §6: "menu also
  // seen by industrial"); the route lists below keep it from the other entries.
  {
    key: 'actors',
    label: 'groups.actors',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER, FARMER_ORGANIZATION, INDUSTRIAL],
  },
  {
    key: 'providers',
    label: 'groups.providers',
    roles: [ADMIN, SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL],
  },
  {
    key: 'management',
    label: 'groups.management',
    roles: [ADMIN, SUPER_ADMIN, CLUSTER_MANAGER, SFD],
  },
];

/**
 * Every route of the spec (platform-and-wallet §2, seasons §2, actors-contracts-admin §2).
 * A menu entry shows once its route file exists under `src/routes` (see `buildMenu`).
 */
export const ROUTES: NavRoute[] = [
  {
    key: 'dashboard',
    path: '/dashboard',
    label: 'routes.dashboard',
    group: null,
    roles: 'all',
    menu: true,
  },
  {
    key: 'wallet',
    path: '/wallet',
    label: 'routes.wallet',
    group: null,
    roles: 'all',
    menu: false,
  },
  {
    key: 'walletStatement',
    path: '/wallet/releve',
    label: 'routes.walletStatement',
    group: null,
    roles: 'all',
    menu: false,
  },
  {
    key: 'audit',
    path: '/audit',
    label: 'routes.audit',
    group: null,
    roles: [SUPER_ADMIN, ADMIN, ACCOUNTING],
    menu: true,
  },
  {
    key: 'reconciliation',
    path: '/rapprochement',
    label: 'routes.reconciliation',
    group: null,
    roles: [SUPER_ADMIN, ADMIN, ACCOUNTING],
    menu: true,
  },
  {
    key: 'sms',
    path: '/sms',
    label: 'routes.sms',
    group: null,
    roles: [SUPER_ADMIN, ADMIN],
    menu: true,
  },
  {
    key: 'profile',
    path: '/profile',
    label: 'routes.profile',
    group: null,
    roles: 'all',
    menu: false,
  },
  // Activités (seasons)
  {
    key: 'seasons',
    path: '/saisons',
    label: 'routes.seasons',
    group: 'activities',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER],
    menu: true,
  },
  {
    key: 'industrialSeasons',
    path: '/dashboard/industriel/saisons',
    label: 'routes.industrialSeasons',
    group: 'activities',
    roles: [INDUSTRIAL],
    menu: true,
  },
  {
    key: 'stores',
    path: '/industriel/mes-magasins',
    label: 'routes.stores',
    group: 'activities',
    roles: [INDUSTRIAL],
    menu: true,
  },
  {
    key: 'coverageZones',
    path: '/industriel/zones-de-couverture',
    label: 'routes.coverageZones',
    group: 'activities',
    roles: [INDUSTRIAL],
    menu: true,
  },
  // The aggregator's field screens: paying at the scale, planning the harvest.
  {
    key: 'collectionCentre',
    path: '/centre-de-collecte',
    label: 'routes.collectionCentre',
    group: 'activities',
    roles: [INDUSTRIAL],
    menu: true,
  },
  {
    key: 'harvestForecast',
    path: '/previsions-de-recolte',
    label: 'routes.harvestForecast',
    group: 'activities',
    roles: [INDUSTRIAL],
    menu: true,
  },
  {
    key: 'inputDeliveries',
    path: '/demande',
    label: 'routes.inputDeliveries',
    group: 'activities',
    roles: [INDUSTRIAL, INPUT_PROVIDER],
    menu: true,
  },
  // Grower requests
  {
    key: 'inputRequests',
    path: '/op/demande/intrant',
    label: 'routes.inputRequests',
    group: 'requests',
    roles: [INDUSTRIAL, FARMER_ORGANIZATION],
    menu: true,
  },
  {
    key: 'pineappleRequests',
    path: '/demande/avance-ananas',
    label: 'routes.pineappleRequests',
    group: 'requests',
    roles: [INDUSTRIAL, FARMER_ORGANIZATION],
    menu: true,
  },
  // Not in the spec: the SFD's social financing requests, and the growers' filing form.
  {
    key: 'socialRequests',
    path: '/demande/financement-social',
    label: 'routes.socialRequests',
    group: null,
    roles: [SFD, SUPER_ADMIN],
    menu: true,
  },
  {
    key: 'fileRequest',
    path: '/demande/nouvelle',
    label: 'routes.fileRequest',
    group: null,
    roles: [GROWER, FARMER_ORGANIZATION],
    menu: true,
  },
  {
    key: 'growerStatement',
    path: '/contrats/releve',
    label: 'routes.growerStatement',
    group: null,
    roles: [GROWER],
    menu: true,
  },
  // Transactions
  {
    key: 'payments',
    path: '/paiements-effectues',
    label: 'routes.payments',
    group: 'transactions',
    roles: [ADMIN, INDUSTRIAL, INPUT_PROVIDER],
    menu: true,
  },
  {
    key: 'supplies',
    path: '/approvisionnements',
    label: 'routes.supplies',
    group: 'transactions',
    roles: [ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'financings',
    path: '/financements',
    label: 'routes.financings',
    group: 'transactions',
    roles: [INDUSTRIAL],
    menu: true,
  },
  {
    key: 'adminSupplies',
    path: '/admin/approvisionnements',
    label: 'routes.adminSupplies',
    group: 'transactions',
    roles: [SUPER_ADMIN],
    menu: true,
  },
  // Contrats
  {
    key: 'deliveryContracts',
    path: '/contrats/livraison',
    label: 'routes.deliveryContracts',
    group: 'contracts',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'pineappleAdvanceContracts',
    path: '/contrats/avance-ananas',
    label: 'routes.pineappleAdvanceContracts',
    group: 'contracts',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'contractBatches',
    path: '/contrats/lots',
    label: 'routes.contractBatches',
    group: 'contracts',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'contractBatchCreate',
    path: '/contrats/lots/create',
    label: 'routes.contractBatchCreate',
    group: 'contracts',
    roles: [INDUSTRIAL],
    menu: false,
  },
  {
    key: 'inputAdvanceContracts',
    path: '/contrats/avances/intrants',
    label: 'routes.inputAdvanceContracts',
    group: 'contracts',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'carriageContracts',
    path: '/contrats/transport',
    label: 'routes.carriageContracts',
    group: 'contracts',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL, CARRIER],
    menu: true,
  },
  {
    key: 'socialFinancingContracts',
    path: '/contrats/avances/social',
    label: 'routes.socialFinancingContracts',
    group: null,
    roles: [SFD],
    menu: true,
  },
  {
    key: 'inputSupplyContracts',
    path: '/contrats/fourniture',
    label: 'routes.inputSupplyContracts',
    group: 'contracts',
    roles: [SUPER_ADMIN, ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'contractTerms',
    path: '/contrats/modele',
    label: 'routes.contractTerms',
    group: 'contracts',
    roles: [SUPER_ADMIN],
    menu: true,
  },
  // Acteurs
  {
    key: 'growers',
    path: '/producteurs',
    label: 'routes.growers',
    group: 'actors',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER, ADMIN, FARMER_ORGANIZATION],
    menu: true,
  },
  {
    key: 'cooperatives',
    path: '/organisations-paysannes',
    label: 'routes.cooperatives',
    group: 'actors',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER, ADMIN, INDUSTRIAL],
    menu: true,
    hiddenForCooperative: true,
  },
  // Prestataires
  {
    key: 'carriers',
    path: '/transporteurs',
    label: 'routes.carriers',
    group: 'providers',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER, ADMIN, INDUSTRIAL],
    menu: true,
  },
  {
    key: 'inputProviders',
    path: '/fournisseurs-intrant',
    label: 'routes.inputProviders',
    group: 'providers',
    // The aggregator reads its cluster's suppliers (spec §6: "menu also seen by industrial").
    roles: [ADMIN, SUPER_ADMIN, CLUSTER_MANAGER, INDUSTRIAL],
    menu: true,
  },
  // Gestion
  {
    key: 'users',
    path: '/utilisateurs',
    label: 'routes.users',
    group: 'management',
    roles: [SUPER_ADMIN, CLUSTER_MANAGER, ADMIN, INDUSTRIAL, SFD],
    menu: true,
  },
  {
    key: 'payoutRequests',
    path: '/admin/demandes-compte',
    label: 'routes.payoutRequests',
    group: 'management',
    roles: [SUPER_ADMIN],
    menu: true,
  },
  {
    key: 'clusterConfig',
    path: '/config/cluster',
    label: 'routes.clusterConfig',
    group: 'management',
    roles: [CLUSTER_MANAGER],
    menu: true,
    needsCluster: true,
  },
  {
    key: 'clusterSettings',
    path: '/config/settings',
    label: 'routes.clusterSettings',
    group: 'management',
    roles: [SFD],
    menu: true,
    needsCluster: true,
  },
  {
    key: 'reporting',
    path: '/reporting',
    label: 'routes.reporting',
    group: 'management',
    roles: [SUPER_ADMIN],
    menu: true,
  },
];

export function routeByKey(key: string): NavRoute {
  const route = ROUTES.find((r) => r.key === key);
  if (!route) throw new Error(`unknown route ${key}`);
  return route;
}
