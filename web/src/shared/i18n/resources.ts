import enCharts from './locales/en/charts.json';
import frCharts from './locales/fr/charts.json';
import enDashboard from './locales/en/dashboard.json';
import frDashboard from './locales/fr/dashboard.json';
import enReporting from './locales/en/reporting.json';
import frReporting from './locales/fr/reporting.json';
import enAudit from './locales/en/audit.json';
import enDepot from './locales/en/depot.json';
import frDepot from './locales/fr/depot.json';
import frAudit from './locales/fr/audit.json';
import enReconciliation from './locales/en/reconciliation.json';
import frReconciliation from './locales/fr/reconciliation.json';
import enCollection from './locales/en/collection.json';
import frCollection from './locales/fr/collection.json';
import enMessaging from './locales/en/messaging.json';
import frMessaging from './locales/fr/messaging.json';
import enContractTerms from './locales/en/contractTerms.json';
import frContractTerms from './locales/fr/contractTerms.json';
import enSeasons from './locales/en/seasons.json';
import enSeasonInvitations from './locales/en/seasonInvitations.json';
import enSeasonInputs from './locales/en/seasonInputs.json';
import enSeasonRequests from './locales/en/seasonRequests.json';
import enPlaces from './locales/en/places.json';
import enContracts from './locales/en/contracts.json';
import enContractBatches from './locales/en/contractBatches.json';
import frSeasons from './locales/fr/seasons.json';
import frSeasonInvitations from './locales/fr/seasonInvitations.json';
import frSeasonInputs from './locales/fr/seasonInputs.json';
import frSeasonRequests from './locales/fr/seasonRequests.json';
import frPlaces from './locales/fr/places.json';
import frContracts from './locales/fr/contracts.json';
import frContractBatches from './locales/fr/contractBatches.json';
import enVerification from './locales/en/verification.json';
import frVerification from './locales/fr/verification.json';
import enAuth from './locales/en/auth.json';
import enCarriers from './locales/en/carriers.json';
import enClusters from './locales/en/clusters.json';
import enCommon from './locales/en/common.json';
import enCooperatives from './locales/en/cooperatives.json';
import enErrors from './locales/en/errors.json';
import enGrowers from './locales/en/growers.json';
import enLocations from './locales/en/locations.json';
import enNav from './locales/en/nav.json';
import enPayout from './locales/en/payout.json';
import enProfile from './locales/en/profile.json';
import enSuppliers from './locales/en/suppliers.json';
import enUsers from './locales/en/users.json';
import enValidation from './locales/en/validation.json';
import enWallet from './locales/en/wallet.json';
import frAuth from './locales/fr/auth.json';
import frCarriers from './locales/fr/carriers.json';
import frClusters from './locales/fr/clusters.json';
import frCommon from './locales/fr/common.json';
import frCooperatives from './locales/fr/cooperatives.json';
import frErrors from './locales/fr/errors.json';
import frGrowers from './locales/fr/growers.json';
import frLocations from './locales/fr/locations.json';
import frNav from './locales/fr/nav.json';
import frPayout from './locales/fr/payout.json';
import frProfile from './locales/fr/profile.json';
import frSuppliers from './locales/fr/suppliers.json';
import frUsers from './locales/fr/users.json';
import frValidation from './locales/fr/validation.json';
import frWallet from './locales/fr/wallet.json';

export const resources = {
  fr: {
    common: frCommon,
    auth: frAuth,
    nav: frNav,
    users: frUsers,
    profile: frProfile,
    validation: frValidation,
    errors: frErrors,
    wallet: frWallet,
    locations: frLocations,
    cooperatives: frCooperatives,
    carriers: frCarriers,
    clusters: frClusters,
    suppliers: frSuppliers,
    growers: frGrowers,
    payout: frPayout,
    seasons: frSeasons,
    seasonInvitations: frSeasonInvitations,
    seasonInputs: frSeasonInputs,
    seasonRequests: frSeasonRequests,
    places: frPlaces,
    contracts: frContracts,
    contractBatches: frContractBatches,
    verification: frVerification,
    dashboard: frDashboard,
    reporting: frReporting,
    audit: frAudit,
    reconciliation: frReconciliation,
    depot: frDepot,
    collection: frCollection,
    messaging: frMessaging,
    contractTerms: frContractTerms,
    charts: frCharts,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    nav: enNav,
    users: enUsers,
    profile: enProfile,
    validation: enValidation,
    errors: enErrors,
    wallet: enWallet,
    locations: enLocations,
    cooperatives: enCooperatives,
    carriers: enCarriers,
    clusters: enClusters,
    suppliers: enSuppliers,
    growers: enGrowers,
    payout: enPayout,
    seasons: enSeasons,
    seasonInvitations: enSeasonInvitations,
    seasonInputs: enSeasonInputs,
    seasonRequests: enSeasonRequests,
    places: enPlaces,
    contracts: enContracts,
    contractBatches: enContractBatches,
    verification: enVerification,
    dashboard: enDashboard,
    reporting: enReporting,
    audit: enAudit,
    reconciliation: enReconciliation,
    depot: enDepot,
    collection: enCollection,
    messaging: enMessaging,
    contractTerms: enContractTerms,
    charts: enCharts,
  },
} as const;

export { LANGUAGE_KEY, LANGUAGES, type Language } from './languages.js';
