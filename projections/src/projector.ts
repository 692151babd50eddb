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
 * must name its tables without a schema and write through the query builder: the
 * schema is applied to the builder's table references only, and a raw `sql` fragment —
 * `sql.table(...)` included — is not rebound, so a rebuild or check would write the live
 * table (the seasons projector's replay test caught exactly that).
 *
 * This is the engine's view, with the tables erased: the engine runs projectors of every
 * context and knows none of their tables. A projector is written with `defineProjector`,
 * which types `apply`'s transaction with the tables the projector declares.
 */
export interface Projector {
  name: string;
  /** Event types it handles; others are skipped (its checkpoint still advances). */
  eventTypes: string[];
  /** The read tables it owns (created by migrations in `public`). */
  tables: string[];
  apply(trx: ProjectorTransaction, events: RecordedEvent[], ctx: ProjectionContext): Promise<void>;
}

/**
 * The transaction the engine hands a projector, bound to the target schema. No table is
 * typed on it: `defineProjector` gives the projector its own.
 */
export type ProjectorTransaction = Kysely<object>;

/** A projector as its context writes it: `apply` sees the tables it declares (`Tables`). */
export interface TypedProjector<Tables> {
  name: string;
  eventTypes: string[];
  /** The read tables it owns: names of `Tables` (which may hold tables it only reads). */
  tables: (keyof Tables & string)[];
  apply(trx: Kysely<Tables>, events: RecordedEvent[], ctx: ProjectionContext): Promise<void>;
}

/**
 * Declares a projector over its own tables, e.g. `defineProjector<WalletBalanceTables>({…})`,
 * and returns the engine's `Projector`. Kysely's database type is invariant, so projectors
 * of different tables could not share one list: the engine's list erases it, and this is the
 * one place a projector's tables are asserted on the engine's transaction (its migrations
 * create them; `ledger:check` and the projectors' tests run them against the real schema).
 */
export function defineProjector<Tables>(projector: TypedProjector<Tables>): Projector {
  return {
    ...projector,
    apply: (trx, events, ctx) => projector.apply(trx as unknown as Kysely<Tables>, events, ctx),
  };
}
