import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';
import { PAGE_SIZE } from '../../../shared/search/list-search.js';

/** The routes of services/api/src/messaging/http/index.ts. */
export const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export const SMS_KINDS = [
  'pin',
  'payout-notice',
  'request-code',
  'input-delivery',
  'payment',
  'contract-offer',
  'monthly-summary',
  'balance-reply',
  'notice',
] as const;
export type SmsKind = (typeof SMS_KINDS)[number];

export interface SmsRow {
  id: number;
  recipient: string;
  recipientName: string | null;
  userId: string | null;
  kind: SmsKind;
  status: SmsStatus;
  /** Null for a code (PIN, delivery code, contract code): never shown. */
  text: string | null;
  failure: string | null;
  attempts: number;
  segments: number | null;
  seasonId: number | null;
  createdAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  failedAt: string | null;
}

export interface Tally {
  messages: number;
  segments: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
}

export interface SmsCounts {
  byUser: (Tally & { userId: string; name: string })[];
  bySeason: (Tally & { seasonId: number })[];
}

export interface SmsFilters {
  page: number;
  q?: string | undefined;
  status?: SmsStatus | undefined;
  kind?: SmsKind | undefined;
}

export const smsListQuery = (f: SmsFilters) =>
  queryOptions({
    queryKey: ['sms', 'list', f] as const,
    queryFn: () =>
      api<{ data: SmsRow[]; count: number }>('/messaging/sms', {
        query: { page: f.page, limit: PAGE_SIZE, q: f.q, status: f.status, kind: f.kind },
      }),
    placeholderData: keepPreviousData,
  });

export const smsCountsQuery = queryOptions({
  queryKey: ['sms', 'counts'] as const,
  queryFn: () => api<SmsCounts>('/messaging/sms/counts'),
});
