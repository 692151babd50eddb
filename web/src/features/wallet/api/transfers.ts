import { queryOptions } from '@tanstack/react-query';
import { api, command } from '../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../shared/api/idempotency.js';
import { toPage, type Page } from '../../../shared/auth/user.js';
import type { Recipient, Transaction } from '../model/types.js';

/**
 * Transfer recipients: admins search every user, other roles their cluster's
 * (the server decides). Nothing is asked for an empty query.
 */
export const RECIPIENTS_PATH = '/wallet/recipients';

export const recipientsQuery = (q: string) =>
  queryOptions({
    queryKey: ['wallet', 'recipients', q],
    queryFn: async () =>
      toPage(await api<Page<Recipient> | Recipient[]>(RECIPIENTS_PATH, { query: { q } })).data,
    enabled: q.trim().length > 0,
    staleTime: 30_000,
  });

export interface TransferInput {
  source: string;
  destination: string;
  amount: number;
  reason: string;
}

export function makeTransfer(input: TransferInput, key: IdempotencyKey): Promise<Transaction> {
  return command<Transaction>('/wallet/make-transfer', key, { body: input });
}

export interface WithdrawInput {
  paiementMethod: 'MOBILE_MONEY' | 'BANK';
  amount: number;
}

/** `POST wallet/make-debit/{id}`'s answer: the withdrawal is PENDING until paid out. */
export interface WithdrawalAnswer {
  withdrawalId: string;
  reference: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  amount: number;
  paiementMethod: 'MOBILE_MONEY' | 'BANK';
  /** The mobile-money number or bank account the money goes to. */
  destination: string;
}

export function makeDebit(walletOrUserId: string, input: WithdrawInput, key: IdempotencyKey) {
  return command<WithdrawalAnswer>(
    `/wallet/make-debit/${encodeURIComponent(walletOrUserId)}`,
    key,
    { body: input },
  );
}
