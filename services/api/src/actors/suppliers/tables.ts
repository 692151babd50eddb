import type { CreatedAt } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Time = ColumnType<Date, Date | string | undefined, Date | string>;
/** `numeric(10, 7)`: read as text by pg (exact), written as a number or text. */
type Coordinate = ColumnType<string | null, number | string | null, number | string | null>;

/**
 * The tables the suppliers area's migrations create (migrations/20261125_0630_input_suppliers.ts;
 * merged in ../tables.ts): the fertilizer catalogue (seeded) and the input suppliers with
 * their delivery points and the fertilizers they supply.
 */
export interface SuppliersTables {
  fertilizer_types: { id: number; code: string; label: string };
  fertilizers: { id: number; type_id: number; label: string };
  input_suppliers: {
    id: Generated<string>;
    reference: Generated<string>;
    /** The supplier's identity organisation (type PROVIDER). */
    organization_id: string;
    /** Its representative (ROLE_INPUT_PROVIDER), created through identity's members. */
    user_id: string;
    cluster_id: string | null;
    rccm: string;
    /** Digits only. */
    ifu: string;
    created_by: string | null;
    created_at: CreatedAt;
    updated_at: Time;
    deactivated_at: NullableTime;
  };
  supplier_delivery_points: {
    id: Generated<string>;
    supplier_id: string;
    position: number;
    label: string;
    address: string;
    latitude: Coordinate;
    longitude: Coordinate;
    created_at: CreatedAt;
  };
  supplier_fertilizers: { supplier_id: string; fertilizer_id: number };
}
