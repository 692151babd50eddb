import type { ColumnType } from 'kysely';

type Int8 = ColumnType<number, number | string, number | string>;
type NullableInt8 = ColumnType<
  number | null,
  number | string | null | undefined,
  number | string | null
>;
type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/**
 * The read tables of the requests area (read-model/migrations/20261126_0210_season_requests.ts),
 * merged into `SeasonsTables`.
 */
export interface RequestsTables extends RequestCodesTables {
  season_requests: {
    id: number;
    /** `DEM-000123`. */
    reference: string;
    type: 'INPUT' | 'PINEAPLE' | 'SOCIAL';
    status: 'CREATED' | 'CONFIRMED' | 'REJECTED';
    season_id: number;
    /** The industrial's season link (INPUT, PINEAPLE). */
    link_id: Nullable<number>;
    industrial_user_id: Nullable<string>;
    /** SOCIAL: the SFD asked. */
    sfd_user_id: Nullable<string>;
    grower_id: string;
    grower_user_id: string;
    fertilizer_id: Nullable<number>;
    /** INPUT: kg of fertilizer; PINEAPLE: kg of pineapple to deliver. */
    quantity_kg: NullableInt8;
    amount: Int8;
    /** INPUT, once accepted: `AGW_` + 6 digits (unique). */
    code: Nullable<string>;
    delivery_status: Nullable<'CREATED' | 'DONE'>;
    received_at: NullableTime;
    delivered_by: Nullable<string>;
    provider_user_id: Nullable<string>;
    assignment_id: Nullable<number>;
    /** PINEAPLE, SOCIAL accepted: the debt opened; INPUT delivered: the input advance. */
    debt_id: Nullable<string>;
    reason: Nullable<string>;
    /** Who accepted or rejected, and when. */
    decided_by: Nullable<string>;
    decided_at: NullableTime;
    filed_by: string;
    created_at: Time;
    updated_at: Time;
  };
}

/** The requests' write-side table (migrations/20261126_0200_request_ids.ts): codes handed out. */
export interface RequestCodesTables {
  season_request_codes: {
    code: string;
    request_id: number;
    claimed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
