import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.js';
import type { DayRange } from '../model/presets.js';

/**
 * The dashboard's calls (spec platform-and-wallet §2 "Dashboard (tableauBord)", §3
 * "Dashboard blocks", §7 `contracts/stats`). The answers mirror the API's zod schemas
 * (services/api/src/reporting/dashboard/schemas.ts): money is integer F CFA, quantities are
 * tonnes, dates Benin days.
 */

/** One month of the purchases chart ('YYYY-MM', tonnes delivered by the contracts settled). */
export interface PurchasesPoint {
  month: string;
  tonnes: number;
}

/** One month of the debts chart ('YYYY-MM', producers' debt outstanding at the month's end). */
export interface DebtsPoint {
  month: string;
  amount: number;
}

/** The range the API answered (a preset resolved); `from` null: from the beginning. */
export interface AnsweredRange {
  from: string | null;
  to: string;
}

/** Producers' debts still owed at the end of the range (F CFA). */
export interface DebtBlock {
  totalDebt: number;
  inputAdvanceDebt: number;
  financialDebt: number;
  pineappleAdvanceDebt: number;
}

/** `GET contracts/stats` (aggregator, cluster manager, admins). */
export interface ContractsStats {
  range: AnsweredRange;
  scope: {
    kind: 'ALL' | 'CLUSTER' | 'AGGREGATOR';
    clusterId: string | null;
    aggregatorId: string | null;
  };
  debt: DebtBlock;
  globals: { waitingDelivery: number; waitingQuantity: number; amountToPaid: number };
  delivery: {
    totalContracts: number;
    totalToConfirm: number;
    availableProduction: number;
    executedContracts: number;
    delayedContracts: number;
    canceledContracts: number;
  };
  carriage: { totalContracts: number; totalToConfirm: number; executedContracts: number };
  inputAdvance: {
    totalContracts: number;
    totalAmount: number;
    recoveredAmount: number;
    remainingAmount: number;
  };
  purchases: PurchasesPoint[];
  debts: DebtsPoint[];
}

/** `GET dashboard/me` (grower, cooperative, SFD): what concerns them. */
export interface PersonalDashboard {
  kind: 'GROWER' | 'FARMER_ORGANIZATION' | 'SFD';
  range: AnsweredRange;
  contracts: {
    totalContracts: number;
    totalToConfirm: number;
    waitingDelivery: number;
    waitingQuantity: number;
    availableProduction: number;
    executedContracts: number;
    delayedContracts: number;
    amount: number;
  } | null;
  debt: DebtBlock;
  payments: { count: number; total: number } | null;
  financing: { count: number; principal: number; recovered: number; outstanding: number } | null;
  purchases: PurchasesPoint[];
  debts: DebtsPoint[];
}

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
