import type { CreatedAt, Json } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';
import type { Point } from './domain/geometry.js';

type Time = ColumnType<Date, Date | string | undefined, Date | string>;
/** `numeric(10, 7)`: read as text by pg (exact), written as a number or text. */
type Coordinate = ColumnType<string, number | string, number | string>;

/**
 * The sites' tables (migrations/20261126_0400_sites.ts): an industrial's stores (the spec's
 * user sites) and coverage zones. Plain state tables; every change is also an audit event on
 * the owner's `sites-<userId>` stream (catalogue.ts).
 */
export interface SitesTables {
  user_sites: {
    id: Generated<string>;
    user_id: string;
    label: string;
    address: string;
    latitude: Coordinate;
    longitude: Coordinate;
    created_at: CreatedAt;
    updated_at: Time;
  };
  coverage_zones: {
    id: Generated<string>;
    user_id: string;
    name: string;
    /** The polygon's points in order, each rounded to 7 decimals (≥ 3 distinct). */
    coordinates: Json<Point[]>;
    created_at: CreatedAt;
    updated_at: Time;
  };
}
