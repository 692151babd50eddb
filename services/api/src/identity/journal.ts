import type { Kysely, Transaction } from 'kysely';
import type { IdentityTables } from './tables.js';
import { handleCommand, streamRef, type CommandPipeline } from '@filiere/event-store';
import { narrowDb } from '@filiere/platform';
import { userStream, userStreamId, type IdentityEvent } from './catalogue.js';
import { IdentityRepository } from './repository.js';

const journals = new WeakMap<CommandPipeline, unknown>();

/** What identity's services need of the journal (whatever tables its pool holds). */
export interface IdentityWriter {
  write<T>(work: (repo: IdentityRepository) => Promise<IdentityChange<T>>): Promise<T>;
}

/** What a write to the identity tables decided: its answer, and the events that record it. */
export interface IdentityChange<T> {
  result: T;
  /** The user whose stream records the events. */
  userId: string;
  /** Who made the change (metadata.userId of the events). */
  actorId: string;
  events: IdentityEvent[];
}

/**
 * Writes to the identity tables together with their audit events, so the two do not diverge.
 *
 * Order, inside one PostgreSQL transaction on the `users` table:
 *   1. `work` locks the user's row (SELECT … FOR UPDATE), checks the rules on the values it
 *      reads there, and updates the row (not committed yet; a unique-e-mail clash fails here,
 *      before anything is appended);
 *   2. the events are appended to `user-<id>` through the command pipeline (`app.commands`,
 *      its own transaction, committed);
 *   3. the users transaction commits.
 * A refusal or a failure in 1 or 2 rolls the row back and appends nothing. The only window
 * left is a failure of the final COMMIT after the append: the audit then shows a change that
 * did not happen (an attempt), never a change without its audit event — the safer side for
 * an audit trail. The row lock serialises concurrent changes of one user, so each event's
 * `from` is the value it replaced.
 *
 * While it waits for the append, the transaction holds one pooled connection: writes are
 * run one at a time per process so identity writes can never take the whole pool and leave
 * the pipeline without a connection (they are rare; the API's hot paths never come here).
 */
export class IdentityJournal<DB extends IdentityTables = IdentityTables> {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    /** The caller's pool, whatever else it holds (identity reads it through its own tables). */
    private readonly db: Kysely<DB>,
    private readonly pipeline: CommandPipeline,
  ) {}

  /**
   * The journal of this pipeline, made once: identity's routes and the members face share it,
   * so that their writes queue behind one another (one pooled connection held at a time).
   */
  static of<DB extends IdentityTables>(db: Kysely<DB>, pipeline: CommandPipeline) {
    let journal = journals.get(pipeline) as IdentityJournal<DB> | undefined;
    if (!journal) {
      journal = new IdentityJournal(db, pipeline);
      journals.set(pipeline, journal);
    }
    return journal;
  }

  /**
   * `work` gets identity's repository on the transaction, and the transaction itself typed
   * with the caller's tables (the members face runs other contexts' inserts in it).
   */
  write<T>(
    work: (repo: IdentityRepository, trx: Transaction<DB>) => Promise<IdentityChange<T>>,
  ): Promise<T> {
    const run = this.tail.then(() =>
      this.db.transaction().execute(async (trx) => {
        const change = await work(new IdentityRepository(narrowDb<IdentityTables>()(trx)), trx);
        if (change.events.length) await this.append(change);
        return change.result;
      }),
    );
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * The same, inside the CALLER's transaction (not queued behind the others, since the caller
   * holds its connection already): the events are appended before the caller commits, so the
   * order above holds — a rollback of the caller's transaction after the append leaves an
   * audited attempt, never an unaudited change.
   */
  async writeIn<T>(
    trx: Transaction<DB>,
    work: (repo: IdentityRepository, trx: Transaction<DB>) => Promise<IdentityChange<T>>,
  ): Promise<T> {
    const change = await work(new IdentityRepository(narrowDb<IdentityTables>()(trx)), trx);
    if (change.events.length) await this.append(change);
    return change.result;
  }

  private async append(change: IdentityChange<unknown>): Promise<void> {
    const user = streamRef(userStream, userStreamId(change.userId));
    await handleCommand(this.pipeline, {
      streams: { user },
      metadata: { userId: change.actorId },
      decide: () => ({ writes: [{ streamId: user.id, events: change.events }], result: undefined }),
    });
  }
}
