import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { Page } from '../../../../shared/auth/user.js';
import { pageParams, PAGE_SIZE, type ListQuery } from '../../../../shared/search/list-search.js';
import type { PayoutAccount, PayoutRequest, RequestStatus } from '../model/types.js';

/**
 * The four-eyes payout-account requests (services/api/src/actors/payout/http): staff ask,
 * a super admin who did not ask approves or rejects. Every query key starts with
 * `['payout-requests']`, which a change invalidates.
 */
export const PAYOUT_REQUESTS_KEY = ['payout-requests'] as const;

/** The super admin's list: pending requests first, or one status; searchable, paginated. */
export const payoutRequestsQuery = (search: ListQuery<RequestStatus>) =>
  queryOptions({
    queryKey: [...PAYOUT_REQUESTS_KEY, 'list', search],
    queryFn: () => api<Page<PayoutRequest>>('/payout-requests', { query: pageParams(search) }),
    placeholderData: keepPreviousData,
  });

/** A member's requests (its history), for the staff who see the member. */
export const memberPayoutRequestsQuery = (userId: string, page = 1) =>
  queryOptions({
    queryKey: [...PAYOUT_REQUESTS_KEY, 'user', userId, page],
    queryFn: () =>
      api<Page<PayoutRequest>>(`/payout-requests/user/${encodeURIComponent(userId)}`, {
        query: { page, limit: PAGE_SIZE },
      }),
  });

export interface NewPayoutRequest extends PayoutAccount {
  userId: string;
  comment: string | null;
}

export function requestPayoutChange(input: NewPayoutRequest): Promise<PayoutRequest> {
  return api<PayoutRequest>('/payout-requests', { method: 'POST', body: input });
}

export function approvePayoutRequest(id: string): Promise<PayoutRequest> {
  return api<PayoutRequest>(`/payout-requests/${encodeURIComponent(id)}/approve`, {
    method: 'POST',
  });
}

export function rejectPayoutRequest(id: string, reason: string): Promise<PayoutRequest> {
  return api<PayoutRequest>(`/payout-requests/${encodeURIComponent(id)}/reject`, {
    method: 'POST',
    body: { reason },
  });
}
