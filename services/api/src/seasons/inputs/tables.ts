import type { ColumnType } from 'kysely';

type Int8 = ColumnType<number, number | string, number | string>;
type Int8Default = ColumnType<number, number | string | undefined, number | string>;
type Time = ColumnType<Date, Date | string, Date | string>;

/** The read tables of the inputs area (read-model/migrations/20261126_0110_season_input_providers.ts). */
export interface InputsTables {
  season_input_providers: {
    id: number;
    season_id: number;
    link_id: number;
    industrial_user_id: string;
    provider_user_id: string;
    fertilizer_id: number;
    type_id: number;
    quantity_kg: Int8;
    unit_amount: Int8;
    amount: Int8;
    hold_id: string;
    /** ACTIVE | BANNED */
    status: string;
    /** Σ of the deliveries paid from this assignment's hold (F CFA). */
    delivered_amount: Int8Default;
    /** What the ban released. */
    released_amount: Int8Default;
    created_at: Time;
    updated_at: Time;
  };
}
