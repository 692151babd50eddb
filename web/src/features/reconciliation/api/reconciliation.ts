import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, apiResponse } from '../../../shared/api/client.js';
import type { ApiBody, ApiResponse, RowOf } from '../../../shared/api/types.js';
import { PAGE_SIZE } from '../../../shared/search/list-search.js';

/** The routes of services/api/src/reconciliation/http/index.ts. */
export const SOURCES = ['BANK', 'FEDAPAY', 'KKIAPAY', 'SANDBOX'] as const;
export type Source = (typeof SOURCES)[number];
export const EXCEPTION_STATUSES = ['OPEN', 'LINKED', 'RESOLVED', 'CLOSED'] as const;
export type ExceptionStatus = (typeof EXCEPTION_STATUSES)[number];
export const KINDS = [
  'MISSING_IN_LEDGER',
  'MISSING_AT_PROVIDER',
  'DUPLICATE',
  'AMOUNT_MISMATCH',
] as const;
export type Kind = (typeof KINDS)[number];

export interface DayRow {
  source: Source;
  day: string;
  figures: Record<string, number>;
  status: 'RECONCILED' | 'UNRECONCILED' | 'EXCEPTIONS';
  openExceptions: number;
  reconciledAt: string;
}

export interface ExceptionRow {
  id: string;
  kind: Kind;
  source: Source;
  day: string;
  direction: 'IN' | 'OUT';
  amount: number;
  difference: number;
  lineKey: string | null;
  movementKey: string | null;
  reference: string | null;
  account: string | null;
  status: ExceptionStatus;
  ownerUserId: string | null;
  ownerName: string | null;
  proposal: { action: string; target: string; proposedBy: string } | null;
  openedAt: string;
  updatedAt: string;
}

export interface ExceptionDetail extends ExceptionRow {
  linked: { lineKey: string; movementKey: string } | null;
  history: {
    type: string;
    userId: string | null;
    userName: string | null;
    note: string | null;
    /** The owner an assignment gave. */
    ownerName: string | null;
    at: string;
  }[];
}

export interface Summary {
  openExceptions: number;
  unreconciledAmount: number;
  oldestOpenDay: string | null;
}

/** Every key starts with 'reconciliation': the `reconciliation.changed` push refreshes them. */
export const daysQuery = (page: number, source: Source | undefined) =>
  queryOptions({
    queryKey: ['reconciliation', 'days', page, source ?? ''] as const,
    queryFn: () =>
      api<{ data: DayRow[]; count: number }>('/reconciliation/days', {
        query: { page, limit: PAGE_SIZE, source },
      }),
    placeholderData: keepPreviousData,
  });

export interface ExceptionFilters {
  page: number;
  q?: string | undefined;
  status?: ExceptionStatus | undefined;
  source?: Source | undefined;
  kind?: Kind | undefined;
  /** `me`, `none` or an owner's id. */
  owner?: string | undefined;
}

export const exceptionsQuery = (f: ExceptionFilters) =>
  queryOptions({
    queryKey: ['reconciliation', 'exceptions', f] as const,
    queryFn: () =>
      api<{ data: ExceptionRow[]; count: number }>('/reconciliation/exceptions', {
        query: {
          page: f.page,
          limit: PAGE_SIZE,
          q: f.q,
          status: f.status,
          source: f.source,
          kind: f.kind,
          owner: f.owner,
        },
      }),
    placeholderData: keepPreviousData,
  });

export const exceptionQuery = (id: string) =>
  queryOptions({
    queryKey: ['reconciliation', 'exception', id] as const,
    queryFn: () => api<ExceptionDetail>(`/reconciliation/exceptions/${id}`),
  });

export const summaryQuery = queryOptions({
  queryKey: ['reconciliation', 'summary'] as const,
  queryFn: () => api<Summary>('/reconciliation/summary'),
});

/** Who may own an exception: the active super admins and admins. */
export const ownersQuery = queryOptions({
  queryKey: ['reconciliation', 'owners'] as const,
  queryFn: () => api<{ id: string; name: string }[]>('/reconciliation/owners'),
  staleTime: 60_000,
});

export const STATEMENT_FORMATS = ['MT940', 'CAMT053', 'CSV'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface ImportResult {
  recorded: number;
  known: number;
  conflicts: string[];
  days: string[];
}

/** Imports a statement file; without a format the API recognises it from its content. */
export const importStatement = (body: {
  source: 'BANK' | 'KKIAPAY';
  format?: StatementFormat | undefined;
  content: string;
  bankCode?: string | undefined;
}) => api<ImportResult>('/reconciliation/statements', { method: 'POST', body });

export interface RunResult {
  matched: number;
  unmatchedLines: number;
  unmatchedMovements: number;
  opened: number;
}

/** Closes a source's day. */
export const runDay = (body: { source: Source; day: string }) =>
  api<RunResult>('/reconciliation/run', { method: 'POST', body });

/** One of an exception's actions (assign, link, propose, approve, reject, close). */
export const act = (id: string, action: string, body: object) =>
  api<{ exceptionId: string }>(`/reconciliation/exceptions/${id}/${action}`, {
    method: 'POST',
    body,
  });

/** Downloads the day's .xlsx report. */
export async function downloadReport(source: Source, day: string): Promise<void> {
  const response = await apiResponse(`/reconciliation/days/${source}/${day}/report.xlsx`, {
    accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
  });
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = `rapprochement-${source}-${day}.xlsx`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

type MappingsPath = '/api/reconciliation/bank-mappings';
type MappingPath = '/api/reconciliation/bank-mappings/{bankCode}';
/** A bank's saved CSV mapping, as the API answers it. */
export type BankMappingRow = RowOf<ApiResponse<MappingsPath>>;
/** The columns of a bank's CSV statement, as `PUT bank-mappings/{bankCode}` takes them. */
export type BankMapping = ApiBody<MappingPath, 'put'>;

/** One page of the saved mappings, searched by bank code. */
export const bankMappingsQuery = (page: number, q: string | undefined, limit = PAGE_SIZE) =>
  queryOptions({
    queryKey: ['reconciliation', 'bank-mappings', page, q ?? '', limit] as const,
    queryFn: () =>
      api<ApiResponse<MappingsPath>>('/reconciliation/bank-mappings', {
        query: { page, limit, q },
      }),
    placeholderData: keepPreviousData,
  });

/** Every saved bank code, for the import form (the API gives 100 a page at most). */
export const bankCodesQuery = bankMappingsQuery(1, undefined, 100);

/** Saves (adds or replaces) a bank's CSV mapping. */
export const saveBankMapping = (bankCode: string, body: BankMapping) =>
  api<ApiResponse<MappingPath, 'put'>>(`/reconciliation/bank-mappings/${bankCode}`, {
    method: 'PUT',
    body,
  });
