import type { EventStoreTables } from '@filiere/event-store';
import type { CreatedAt } from '@filiere/platform';
import type { Generated } from 'kysely';

/** The table the projections' migration creates (20261121_0200_projection_checkpoints.ts). */
export interface ProjectionCheckpointTables {
  projection_checkpoints: {
    name: string;
    position: Generated<number>;
    updated_at: CreatedAt;
    last_error: string | null;
  };
}

/** What the projection engine reads and writes: the event log and its checkpoints. */
export type ProjectionTables = EventStoreTables & ProjectionCheckpointTables;
