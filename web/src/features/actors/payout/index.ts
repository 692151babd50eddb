/**
 * The payout-account requests (actors/payout): what the other actors' screens import — the
 * 'Demander un changement' button (with its modal) for their read-only payout section.
 */
export { RequestPayoutChangeButton } from './components/RequestPayoutChangeButton.js';
export { AccountSummary } from './components/AccountSummary.js';
export { memberPayoutRequestsQuery, PAYOUT_REQUESTS_KEY } from './api/payout-requests.js';
export type { PayoutAccount, PayoutRequest } from './model/types.js';
