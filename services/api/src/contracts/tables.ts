import type { ColumnType } from 'kysely';
import type { CreatedAt, LeaseColumns } from '@filiere/platform';

/** bigint columns: the pool reads them as (safe) numbers. */
type BigintColumn = number;
type NullableBigint = number | null;
type DateColumn = ColumnType<string, string, string>;
type NullableDate = ColumnType<string | null, string | null, string | null>;
type Time = ColumnType<Date, Date | string, Date | string>;

/** The tables of read-model/migrations/20261125_0800_contract_read_tables.ts. */
export interface ContractsTables {
  delivery_contracts: {
    id: string;
    reference: string;
    parent_id: string | null;
    aggregator_user_id: string;
    grower_id: string;
    grower_user_id: string;
    plot_id: string;
    product_type: string | null;
    quantity_kg: BigintColumn;
    amount: BigintColumn;
    delivery_date: DateColumn;
    /** PENDING, CONFIRMED, DELIVERED, COMPLETED, OUTTIME, CANCELED. */
    status: string;
    delivered_kg: NullableBigint;
    delivered_on: NullableDate;
    delivered_amount: NullableBigint;
    recovered_amount: NullableBigint;
    grower_net: NullableBigint;
    created_at: Time;
    updated_at: Time;
  };
  grower_debts: {
    id: string;
    kind: string;
    creditor_user_id: string;
    debtor_grower_id: string;
    principal: BigintColumn;
    recovered: ColumnType<number, number | undefined, number>;
    opened_at: Time;
  };
  /** Migration 20261126_0500: runs, their items and the leased job per contract. */
  contract_runs: {
    id: string;
    aggregator_user_id: string;
    idempotency_key: string | null;
    total: number;
    created_at: CreatedAt;
  };
  contract_run_items: {
    run_id: string;
    contract_id: string;
    position: number;
    /** PENDING, COMPLETED, FAILED. */
    status: ColumnType<string, string | undefined, string>;
    error: ColumnType<string | null, string | null | undefined, string | null>;
    grower_net: ColumnType<number | null, number | null | undefined, number | null>;
    recovered_amount: ColumnType<number | null, number | null | undefined, number | null>;
    /** Migration 20261206_0500: the recoveries by family (null until COMPLETED). */
    input_advances: ColumnType<number | null, number | null | undefined, number | null>;
    pineapple_advances: ColumnType<number | null, number | null | undefined, number | null>;
    social_financing: ColumnType<number | null, number | null | undefined, number | null>;
    payout_id: ColumnType<string | null, string | null | undefined, string | null>;
    updated_at: CreatedAt;
  };
  contract_jobs: ContractJobColumns;
}

/** `contract_jobs` as platform's leased job store sees it. */
export interface ContractJobColumns extends LeaseColumns {
  run_id: string;
  contract_id: string;
  attempts: ColumnType<number, number | undefined, number>;
  run_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}
