import type { ActorsArea } from '../area.js';
import { payoutDemoStep } from './demo/payout.js';
import * as payoutRequests from './migrations/20261125_0650_payout_requests.js';

/**
 * The payout area of the actors context: four-eyes requests to change a member's payout
 * account (mobile money, bank). Staff in reach ask; a super admin who did not ask approves
 * (identity then changes the account, `members.changePayout`) or rejects with a reason; the
 * old and the new number are told by SMS; each step is an event of the member's `user-<id>`
 * stream (GET /api/users/{id}/audit). Routes: http/ (/api/payout-requests…).
 */
export const payoutArea: ActorsArea = {
  name: 'payout',
  migrations: { '20261125_0650_payout_requests': payoutRequests },
  demo: [payoutDemoStep],
  http: async () => (await import('./http/index.js')).registerPayout,
};
