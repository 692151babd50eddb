import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse } from '../../../../shared/api/types.js';
import type { DayRange } from '../model/presets.js';

/**
 * The dashboard's calls (spec platform-and-wallet §2 "Dashboard (tableauBord)", §3
 * "Dashboard blocks", §7 `contracts/stats`). The answers mirror the API's zod schemas
 * (services/api/src/reporting/dashboard/schemas.ts): money is integer F CFA, quantities are
 * tonnes, dates Benin days.
 */

/** `GET contracts/stats` (aggregator, cluster manager, admins). */
export type ContractsStats = ApiResponse<'/api/contracts/stats'>;
/** `GET dashboard/me` (grower, cooperative, SFD): what concerns them. */
export type PersonalDashboard = ApiResponse<'/api/dashboard/me'>;
/** One month of the purchases chart ('YYYY-MM', tonnes delivered by the contracts settled). */
export type PurchasesPoint = ContractsStats['purchases'][number];
/** One month of the debts chart ('YYYY-MM', producers' debt outstanding at the month's end). */
export type DebtsPoint = ContractsStats['debts'][number];
/** The range the API answered (a preset resolved); `from` null: from the beginning. */
export type AnsweredRange = ContractsStats['range'];
/** Producers' debts still owed at the end of the range (F CFA). */
export type DebtBlock = ContractsStats['debt'];

/** What the dashboard asks: the days, and for the admins a cluster ('Tout': none). */
export interface DashboardQuery extends DayRange {
  clusterId?: string | undefined;
}

/** Every dashboard query starts with 'dashboard': the `reporting.dashboard` push refreshes them. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  stats: (query: DashboardQuery) => ['dashboard', 'stats', query] as const,
  personal: (query: DayRange) => ['dashboard', 'me', query] as const,
};

export const contractsStatsQuery = (query: DashboardQuery) =>
  queryOptions({
    queryKey: dashboardKeys.stats(query),
    queryFn: () =>
      api<ContractsStats>('/contracts/stats', {
        query: { from: query.from, to: query.to, clusterId: query.clusterId },
      }),
    placeholderData: keepPreviousData,
  });

export const personalDashboardQuery = (query: DayRange) =>
  queryOptions({
    queryKey: dashboardKeys.personal(query),
    queryFn: () =>
      api<PersonalDashboard>('/dashboard/me', { query: { from: query.from, to: query.to } }),
    placeholderData: keepPreviousData,
  });
