import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';

/** A request to change a member's payout account (GET /payout-requests…). */
export type PayoutRequest = RowOf<ApiResponse<'/api/payout-requests'>>;
/** A member's payout account as the API answers it (numbers in E.164, `+22901XXXXXXXX`). */
export type PayoutAccount = PayoutRequest['current'];
export type PersonRef = PayoutRequest['requestedBy'];

export const REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
