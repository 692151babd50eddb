/** A member's payout account as the API answers it (numbers in E.164, `+22901XXXXXXXX`). */
export interface PayoutAccount {
  momoAccountNumber: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
}

export const REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export interface PersonRef {
  id: string;
  firstname: string;
  lastname: string;
}

/** A request to change a member's payout account (GET /payout-requests…). */
export interface PayoutRequest {
  id: string;
  status: RequestStatus;
  member: PersonRef & { phone: string | null; role: string };
  /** The account when it was asked (payments go there until approval). */
  current: PayoutAccount;
  proposed: PayoutAccount;
  comment: string | null;
  requestedBy: PersonRef;
  requestedAt: string;
  decidedBy: PersonRef | null;
  decidedAt: string | null;
  rejectionReason: string | null;
}
