import type { ColumnType } from 'kysely';

/** A `bigint` amount or position: read as a number, written as a number or decimal text. */
type Int8 = ColumnType<number, number | string, number | string>;
type Time = ColumnType<Date, Date | string, Date | string>;

/**
 * The wallet history's read table (migrations/20261127_0400_wallet_balance_history.ts):
 * one row per event of a wallet stream, the wallet's balances right after it.
 */
export interface WalletHistoryTables {
  wallet_balance_history: {
    wallet_id: string;
    /** The event's position in the log. */
    position: Int8;
    /** The event's version in its wallet stream. */
    version: number;
    /** The event's `recorded_at` as PostgreSQL holds it (microseconds, not the JS Date's ms). */
    recorded_at: Time;
    type: string;
    /** What the event did to the balance (signed). */
    amount: Int8;
    /** What the event did to the available balance (signed: a hold placed is negative). */
    available_amount: Int8;
    balance: Int8;
    held: Int8;
    available_balance: Int8;
    /** The wallet had opened (a fold gives postings to an unopened wallet no effect). */
    opened: boolean;
    /** The wallet id its WalletOpened carried (null before it). */
    opened_wallet_id: string | null;
    /** What the movement is about: its reference, transfer, withdrawal, hold or financing id. */
    reference: string | null;
  };
}
