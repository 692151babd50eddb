import type { Kysely } from 'kysely';
import type { RecordedEvent } from './events.js';

/** What a projector tells the websocket hub after its transaction commits. */
export interface PushMessage {
  type: string;
  /** The users whose rooms receive the message. */
  userIds: string[];
  /** Small payload (ids, types): pushes may travel through an 8000-byte NOTIFY. */
  data?: unknown;
}

export interface ProjectionContext {
  /** Queues a push; it is published only after the batch's transaction commits. */
  push(msg: PushMessage): void;
}

/**
 * A projector turns events into read tables. `apply` receives a Kysely bound to
 * the target schema (`public` live, another schema during rebuild/check), so it
 * must name its tables without a schema and use the query builder (raw `sql`
 * fragments must use `sql.table(...)`/`sql.id(...)` through that same Kysely
 * or they would miss the rebuild schema).
 */
export interface Projector {
  name: string;
  /** Event types it handles; others are skipped (its checkpoint still advances). */
  eventTypes: string[];
  /** The read tables it owns (created by migrations in `public`). */
  tables: string[];
  apply(trx: Kysely<any>, events: RecordedEvent[], ctx: ProjectionContext): Promise<void>;
}
