import type { ColumnType } from 'kysely';

/** A `timestamptz` set by the database when absent. */
type Time = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * The tables the clusters area's migrations create (migrations/20261125_0640_cluster_settings.ts;
 * merged in ../tables.ts). A cluster itself is identity's row (`clusters`: id, label); this
 * area adds what 'Configurer mon cluster' sets: the cluster's aggregator and who configured it.
 */
export interface ClustersTables {
  cluster_settings: {
    cluster_id: string;
    /** The aggregator (ROLE_INDUSTRIAL) configured for the cluster. */
    industrial_user_id: string | null;
    /** The cluster manager (or SFD) who last configured it. */
    manager_user_id: string | null;
    updated_by: string;
    updated_at: Time;
  };
}
