import type { CreatedAt } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';
import type { CarType } from './domain/vehicles.js';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * The tables the carriers area's migrations create (migrations/20261125_0620_carriers.ts;
 * merged in ../tables.ts). A carrier is a ROLE_CARRIER user; this row holds the rest.
 */
export interface CarriersTables {
  carriers: {
    id: Generated<string>;
    reference: Generated<string>;
    user_id: string;
    cluster_id: string;
    organization_id: string | null;
    address: string;
    department_code: string;
    commune_code: string;
    arrondissement_code: string;
    village_code: string;
    created_at: CreatedAt;
    updated_at: CreatedAt;
    deactivated_at: NullableTime;
  };
  vehicles: {
    id: Generated<string>;
    carrier_id: string;
    car_type: CarType;
    /** Upper case, single spaces; unique across carriers. */
    registration: string;
    /** Kg. */
    empty_weight: number | null;
    /** Kg. */
    capacity: number;
    created_at: CreatedAt;
  };
}
