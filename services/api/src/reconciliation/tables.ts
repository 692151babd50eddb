import type { ColumnType, Generated } from 'kysely';
import type { Json } from '@filiere/platform';
import type { DayFigures } from './domain/index.js';
import type { BankCsvMapping } from './sources/bank-csv-row.js';

export type { BankCsvMapping };

type Int8 = ColumnType<number, number | string, number | string>;
type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Reconciliation's tables (migrations/20261207_0900_reconciliation.ts). */
export interface ReconciliationTables {
  /** Statement lines, projected from StatementLineRecorded. */
  reconciliation_lines: {
    line_key: string;
    source: string;
    day: string;
    provider_reference: string;
    reference: string | null;
    direction: string;
    amount: Int8;
    account: string | null;
    occurred_at: Time;
  };
  /**
   * The ledger's supplies and payouts, projected from the wallet's events: a supply is a
   * movement once credited (`moved_at`), a payout once debited, and no longer one once
   * refunded (`status` FAILED).
   */
  reconciliation_movements: {
    movement_key: string;
    channel: string;
    kind: string;
    reference: string;
    provider_reference: string | null;
    direction: string;
    amount: Int8;
    account: string | null;
    status: string;
    moved_at: NullableTime;
  };
  /** Each source's days, with the figures of their last close. */
  reconciliation_days: {
    source: string;
    day: string;
    figures: Json<DayFigures>;
    status: string;
    reconciled_at: Time;
  };
  reconciliation_exceptions: {
    exception_id: string;
    kind: string;
    source: string;
    day: string;
    direction: string;
    amount: Int8;
    difference: Int8;
    line_key: string | null;
    movement_key: string | null;
    reference: string | null;
    account: string | null;
    status: string;
    owner_user_id: string | null;
    proposed_action: string | null;
    proposed_target: string | null;
    proposed_by: string | null;
    linked_line_key: string | null;
    linked_movement_key: string | null;
    opened_at: Time;
    updated_at: Time;
  };
  /** Every event of an exception, in order: its history. */
  reconciliation_exception_history: {
    position: Int8;
    exception_id: string;
    type: string;
    user_id: string | null;
    note: string | null;
    /** The owner an `ExceptionAssigned` gave. */
    owner_user_id: string | null;
    at: Time;
  };
  /** How a bank's CSV statement names its columns (write side, one row per bank). */
  reconciliation_bank_mappings: {
    bank_code: string;
    mapping: Json<BankCsvMapping>;
    updated_by: string;
    updated_at: Generated<Date>;
  };
}
