import type { ColumnType, Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import type { ActorsTables } from '../actors/index.js';
import type { IdentityTables } from '../identity/index.js';
import type { DeliveriesTables } from './deliveries/tables.js';
import type { InputsTables } from './inputs/tables.js';
import type { RequestsTables } from './requests/tables.js';

/** A `bigint` amount: read as a number (platform's int8 parser), written as a number. */
type Int8 = ColumnType<number, number | string, number | string>;
type Int8Default = ColumnType<number, number | string | undefined, number | string>;
/** A `numeric`, read as text by pg (converted by the queries). */
type Numeric = ColumnType<string, number | string, number | string>;
type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type DateColumn = ColumnType<string, string, string>;

/** The read tables of read-model/migrations/20261125_0710_season_read_tables.ts. */
export interface SeasonReadTables {
  seasons: {
    id: number;
    label: string;
    from_date: DateColumn;
    to_date: DateColumn;
    unit_product_amount: Int8;
    production_index: Numeric;
    quotity: Numeric;
    fertilizers: ColumnType<
      { fertilizerId: number; typeId: number; amount: number; index: number }[],
      string,
      string
    >;
    is_active: ColumnType<boolean, boolean | undefined, boolean>;
    archived: ColumnType<boolean, boolean | undefined, boolean>;
    status: ColumnType<string, string | undefined, string>;
    industrials_count: ColumnType<number, number | undefined, number>;
    total_quantity: Int8Default;
    total_production_amount: Int8Default;
    total_fertilizer_amount: Int8Default;
    total_min_supply_amount: Int8Default;
    created_by: string;
    created_at: Time;
    updated_at: Time;
  };
  season_links: {
    id: number;
    season_id: number;
    user_id: string;
    quantity: Int8;
    production_amount: Int8;
    fertilizer_amount: Int8;
    min_supply_amount: Int8;
    status: string;
    attached_at: Time;
    expires_at: Time;
    accepted_at: NullableTime;
    canceled_at: NullableTime;
    updated_at: Time;
  };
}

/** The seasons' tables, the areas' included (the id sequences are not tables). */
export type SeasonsTables = SeasonReadTables & InputsTables & RequestsTables & DeliveriesTables;

/** What the seasons' services read: their tables, the users, the fertilizer catalogue. */
export type SeasonsDbTables = SeasonsTables &
  EventStoreTables &
  Pick<IdentityTables, 'users' | 'roles'> &
  Pick<ActorsTables, 'fertilizers' | 'fertilizer_types'>;

export type SeasonsDb = Kysely<SeasonsDbTables>;

/** Narrows the product's pool to the seasons' view of it. */
export const seasonsDb = narrowDb<SeasonsDbTables>();
