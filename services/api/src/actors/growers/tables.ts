import type { CreatedAt } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';

/** A nullable `timestamptz`: read as a Date or null. */
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** A `timestamptz` the database sets by default, updated by the code. */
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A PostgreSQL numeric: read as text (exact), written as a number or text. */
type Numeric = ColumnType<string, number | string, number | string>;
type NullableNumeric = ColumnType<
  string | null,
  number | string | null | undefined,
  number | string | null
>;
/** A `date`, read as `YYYY-MM-DD` text (the pool's date parser keeps it as text). */
type NullableDate = ColumnType<string | Date | null, string | null | undefined, string | null>;

/**
 * The tables the growers area's migrations create (migrations/20261125_0610_growers.ts;
 * merged in ../tables.ts).
 */
export interface GrowersTables {
  growers: {
    id: Generated<string>;
    /** `PRD-000123`, from `grower_reference_seq`. */
    reference: Generated<string>;
    /** The grower's identity user (ROLE_GROWER), with its wallet. */
    user_id: string;
    /** The reach: the cluster whose staff see the grower. */
    cluster_id: string;
    /** The cooperative: an identity organisation of type COOPERATIVE, or none. */
    cooperative_id: string | null;
    sub_cooperative: string | null;
    address: string | null;
    department_code: string;
    commune_code: string;
    arrondissement_code: string;
    village_code: string;
    contact_fullname: string | null;
    contact_phone: string | null;
    /** Kept by triggers (reference, names, phone; folded): the list's search. */
    search: Generated<string>;
    created_by: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
    deactivated_at: NullableTime;
  };
  plots: {
    id: Generated<string>;
    grower_id: string;
    seq: Generated<string>;
    product_type: 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE';
    department_code: string;
    commune_code: string;
    arrondissement_code: string;
    village_code: string;
    /** The plot's name ('location' in the spec). */
    name: string;
    address: string | null;
    latitude: NullableNumeric;
    longitude: NullableNumeric;
    planting_date: NullableDate;
    tif_date: NullableDate;
    /** Hectares, > 0. */
    area_sown: Numeric;
    /** Tonnes. */
    estimated_production: NullableNumeric;
    created_by: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
}
