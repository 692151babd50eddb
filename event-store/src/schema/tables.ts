import type { CreatedAt, Json } from '@filiere/platform';
import type { Generated } from 'kysely';

/**
 * The tables the event store's migrations create (see 20261121_0100_events.ts). Positions
 * are `bigint`, read as numbers by platform's parser (which refuses unsafe integers).
 */
export interface EventStoreTables {
  events: {
    position: number;
    stream_id: string;
    version: number;
    type: string;
    schema_version: Generated<number>;
    data: Json;
    metadata: Json;
    recorded_at: CreatedAt;
    hash: string;
  };
  event_head: {
    id: Generated<boolean>;
    position: number;
    hash: string;
  };
  /** Idempotency: a command's key, its result and the positions it wrote. */
  commands: {
    key: string;
    result: Json;
    positions: Json<number[]>;
    recorded_at: CreatedAt;
  };
  /** Versions of rows kept outside the log, that commands may name (see 20261202_0104). */
  read_guards: {
    key: string;
    version: number;
  };
}
