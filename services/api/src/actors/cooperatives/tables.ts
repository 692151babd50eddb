import type { CreatedAt } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * The tables the cooperatives area's migrations create (migrations/20261125_0600_cooperatives.ts;
 * merged in ../tables.ts). A cooperative is an identity organisation (its denomination lives
 * in `organizations`) whose representative is a user; this row holds the rest.
 */
export interface CooperativesTables {
  cooperatives: {
    organization_id: string;
    reference: Generated<string>;
    user_id: string;
    cluster_id: string;
    rccm: string | null;
    /** Exactly 13 digits (spec §9). */
    ifu: string;
    created_at: CreatedAt;
    updated_at: CreatedAt;
    deactivated_at: NullableTime;
  };
}
