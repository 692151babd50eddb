import type { ColumnType } from 'kysely';

type Int8 = ColumnType<number, number | string, number | string>;
type NullableInt8 = ColumnType<number | null, number | string | null, number | string | null>;
type NullableTime = ColumnType<Date | null, Date | string | null, Date | string | null>;

/** The audit area's table (migrations/20261127_0300_audit_integrity.ts): one row. */
export interface AuditTables {
  audit_integrity: {
    id: ColumnType<boolean, boolean | undefined, never>;
    /** The chain holds from the genesis to this position (0: nothing verified yet). */
    last_position: Int8;
    /** The hash of the event at `last_position` (the genesis hash at 0). */
    last_hash: string;
    /** When the verification last ran to the end of the log. */
    verified_at: NullableTime;
    status: 'OK' | 'BROKEN';
    /** First position where the chain broke (BROKEN only). */
    broken_at: NullableInt8;
    reason: string | null;
    /** When the chain was found broken. */
    broken_detected_at: NullableTime;
    /**
     * The background re-check of events already verified: every event up to here was
     * recomputed again in the current sweep (a change below `last_position` is caught by it).
     */
    sweep_position: Int8;
    /** Sweeps that reached `last_position` since the row was created. */
    sweeps: Int8;
  };
}
