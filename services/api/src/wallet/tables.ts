import type { EventStoreTables } from '@filiere/event-store';
import type { CreatedAt } from '@filiere/platform';
import type { ColumnType } from 'kysely';
import type { IdentityTables } from '../identity/index.js';
import type { WalletExportsTables } from './export/export-store.js';
import type { WalletHistoryTables } from './history/tables.js';
import type { WalletJobsTables } from './jobs/job-store.js';

/**
 * A `bigint` amount or position: read as a number (platform's int8 parser refuses anything
 * past 2^53), written as a number or as decimal text (the projectors add bigint sums as
 * text so that they stay exact).
 */
type Int8 = ColumnType<number, number | string, number | string>;
/** A `bigint` with a default. */
type Int8Default = ColumnType<number, number | string | undefined, number | string>;
type NullableInt8 = ColumnType<number | null, number | string | null, number | string | null>;
/** An `integer` with a default. */
type IntDefault = ColumnType<number, number | undefined, number>;
/** A `timestamptz` with no default (the read model's come from the events' `recorded_at`). */
type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * The write side's tables (migrations/20261121_0400_wallet_jobs.ts, 0401_wallet_exports,
 * 0402_claim_tokens): the sandbox provider's payments, and the two leased job tables,
 * whose columns their stores declare (jobs/job-store.ts, export/export-store.ts).
 */
export type WalletWriteTables = WalletJobsTables &
  WalletExportsTables & {
    wallet_sandbox_transactions: {
      transaction_id: string;
      reference: string;
      amount: Int8;
      status: 'SUCCESS' | 'FAILED';
      created_at: CreatedAt;
    };
  };

/**
 * The read model's tables (read-model/migrations/20261121_0250_wallet_read_tables.ts, 0251
 * supply outcome). Status and type columns are plain text there (no check constraint):
 * the projectors write what the domain's events say.
 */
export interface WalletReadTables {
  wallet_balances: {
    wallet_id: string;
    owner_user_id: string | null;
    balance: Int8Default;
    held: Int8Default;
    available_balance: Int8Default;
    last_transaction_amount: NullableInt8;
    last_transaction_date: NullableTime;
  };
  wallet_transactions: {
    /** The position of the event that created the row. */
    id: Int8;
    key: string;
    wallet_id: string;
    user_id: string | null;
    reference: string;
    operation_type: string;
    direction: string;
    amount: Int8;
    status: string;
    reason: string | null;
    source_wallet_id: string | null;
    destination_wallet_id: string | null;
    source_user_id: string | null;
    destination_user_id: string | null;
    payment_means: string | null;
    destination: string | null;
    created_at: Time;
    updated_at: Time;
  };
  wallet_transaction_owners: WalletOwners;
  /** Each hold's purpose (HoldPlaced), the reference of the rows it pays (0400 hold labels). */
  wallet_hold_labels: {
    hold_id: string;
    label: string;
  };
  /** What each hold of a wallet still keeps (0253 wallet holds; read-model/holds.ts). */
  wallet_holds: {
    hold_id: string;
    wallet_id: string;
    held: Int8;
    purpose: string | null;
    placed_at: NullableTime;
  };
  wallet_monthly_counts: {
    wallet_id: string;
    year: number;
    month: number;
    count: number;
  };
  wallet_supplies: {
    reference: string;
    wallet_id: string;
    owner_user_id: string;
    method: string;
    amount: Int8;
    bank_code: string | null;
    bank_account_number: string | null;
    status: string;
    failure_reason: string | null;
    provider_transaction_id: string | null;
    validated_by: string | null;
    created_at: Time;
    updated_at: Time;
    /** CANCELLED by the payer, REJECTED by a super admin, null otherwise (0251). */
    failure_code: 'CANCELLED' | 'REJECTED' | 'EXPIRED' | null;
    /** The payer's mobile money number given for the widget (0251). */
    payer_phone: string | null;
  };
  wallet_supply_stats: {
    user_id: string;
    wallet_id: string;
    supplies: IntDefault;
    last_supply_amount: NullableInt8;
    last_supply_date: NullableTime;
  };
  wallet_financings: {
    reference: string;
    from_wallet_id: string;
    to_wallet_id: string;
    from_user_id: string | null;
    to_user_id: string | null;
    amount: Int8;
    status: string;
    created_at: Time;
  };
  wallet_reporting_totals: {
    wallet_id: string;
    count_debit: IntDefault;
    total_debit: Int8Default;
    count_supplies: IntDefault;
    total_supplies: Int8Default;
    count_transfer: IntDefault;
    total_transfer: Int8Default;
  };
  wallet_reporting_owners: WalletOwners;
}

/** A projector's own copy of which user owns which wallet (read-model/events.ts). */
export interface WalletOwners {
  wallet_id: string;
  user_id: string;
}

/** Every table the wallet's migrations create. */
export type WalletTables = WalletWriteTables & WalletReadTables & WalletHistoryTables;

/**
 * What the wallet's code reads and writes: its tables, identity's users, roles, organisations and outbox
 * (through identity's public face: recipients, names, the supply mail) and the event log.
 * Entry points take any Kysely holding these (`DB extends WalletDb`) and narrow once.
 */
export type WalletDb = WalletTables &
  Pick<IdentityTables, 'users' | 'roles' | 'organizations' | 'outbox'> &
  EventStoreTables;
