import { queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { toPage } from '../../../shared/auth/user.js';
import type { ApiBody, ApiResponse } from '../../../shared/api/types.js';

/**
 * Transfer recipients: admins search every user, other roles their cluster's
 * (the server decides). Nothing is asked for an empty query.
 */
export const RECIPIENTS_PATH = '/wallet/recipients';

export const recipientsQuery = (q: string) =>
  queryOptions({
    queryKey: ['wallet', 'recipients', q],
    queryFn: async () =>
      toPage(await api<ApiResponse<'/api/wallet/recipients'>>(RECIPIENTS_PATH, { query: { q } }))
        .data,
    enabled: q.trim().length > 0,
    staleTime: 30_000,
  });

export type TransferInput = ApiBody<'/api/wallet/make-transfer'>;

export type TransferAnswer = ApiResponse<'/api/wallet/make-transfer', 'post'>;

export function makeTransfer(input: TransferInput, key: IdempotencyKey): Promise<TransferAnswer> {
  return command<TransferAnswer>('/wallet/make-transfer', key, { body: input });
}

export type WithdrawInput = ApiBody<'/api/wallet/make-debit/{id}'>;

/** `POST wallet/make-debit/{id}`'s answer: the withdrawal is PENDING until paid out. */
export type WithdrawalAnswer = ApiResponse<'/api/wallet/make-debit/{id}', 'post'>;

export function makeDebit(walletOrUserId: string, input: WithdrawInput, key: IdempotencyKey) {
  return command<WithdrawalAnswer>(
    `/wallet/make-debit/${encodeURIComponent(walletOrUserId)}`,
    key,
    { body: input },
  );
}
