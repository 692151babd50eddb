/**
 * The dashboard's read tables (migrations/20261127_0100_dashboard.ts), written by the
 * `reporting-dashboard` projector only. Days are Benin days as 'YYYY-MM-DD' text.
 */
export interface DashboardTables {
  dashboard_growers: {
    grower_id: string;
    user_id: string;
    cluster_id: string | null;
    cooperative_id: string | null;
  };
  dashboard_contracts: {
    contract_id: string;
    family: 'DELIVERY' | 'CARRIAGE';
    aggregator_user_id: string;
    grower_id: string | null;
    day: string;
    status: string;
    quantity_kg: number;
    amount: number;
    delivered_kg: number;
  };
  /** owner_id '' (EVERYONE): the sum of every aggregator's rows (DELIVERY, CARRIAGE). */
  dashboard_daily: {
    owner_id: string;
    family: 'DELIVERY' | 'CARRIAGE' | 'GROWER';
    day: string;
    status: string;
    contracts: number;
    quantity_kg: number;
    amount: number;
    delivered_kg: number;
  };
  /** owner_id '' on side AGGREGATOR (EVERYONE): the sum of every aggregator's rows. */
  dashboard_purchases: {
    side: 'AGGREGATOR' | 'GROWER';
    owner_id: string;
    day: string;
    contracts: number;
    delivered_kg: number;
    paid: number;
    grower_net: number;
  };
  dashboard_debts: {
    debt_id: string;
    kind: string;
    creditor_user_id: string;
    grower_id: string;
    principal: number;
    recovered: number;
    opened_day: string;
  };
  dashboard_debt_daily: {
    grower_id: string;
    creditor_user_id: string;
    kind: string;
    day: string;
    opened: number;
    opened_count: number;
    recovered: number;
  };
  dashboard_aggregator_growers: { aggregator_user_id: string; grower_id: string };
  /** migrations/20261128_0100_dashboard_debt_rollup.ts: debt movements per scope, day, kind. */
  dashboard_debt_rollup: {
    scope: 'ALL' | 'CLUSTER' | 'AGGREGATOR';
    scope_id: string;
    day: string;
    kind: string;
    opened: number;
    recovered: number;
  };
  /**
   * migrations/20261130_0100_dashboard_everyone.ts: debts per creditor ('' for everyone), kind
   * and opening day, with what has been recovered on them so far.
   */
  dashboard_debt_opened: {
    creditor_user_id: string;
    kind: string;
    opened_day: string;
    debts: number;
    principal: number;
    recovered: number;
  };
}

/** The owner (or creditor) of the rows that sum every aggregator's (scope ALL). */
export const EVERYONE = '';
