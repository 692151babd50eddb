import { narrowDb } from '@filiere/platform';
import type { Kysely } from 'kysely';
import type { EventStoreTables } from './schema/tables.js';
import { append, type AppendOptions, type AppendResult } from './append.js';
import type { EventCatalogue } from './catalogue.js';
import { headPosition, readAll, readStream, readStreams } from './read.js';
import type { RecordedEvent, StreamWrite } from './types.js';
import type { HeadHint } from './write.js';

export type AppendListener = (head: number) => void;

/**
 * The event store of one process: appends, reads, and same-process listeners
 * told the new head right after each commit (to wake projectors or enqueue
 * jobs). Other processes LISTEN on EVENTS_CHANNEL instead.
 */
export class EventStore<DB extends EventStoreTables = EventStoreTables> {
  private readonly listeners = new Set<AppendListener>();
  /** The head this process last wrote: lets appends hash in JavaScript. */
  readonly headHint: HeadHint = {};

  /** The event store's own tables (the pool is the caller's, whatever else it holds). */
  readonly db: Kysely<EventStoreTables>;

  constructor(
    db: Kysely<DB>,
    /** The event types this process reads and writes (built from the modules' definitions). */
    readonly catalogue: EventCatalogue,
  ) {
    this.db = narrowDb<EventStoreTables>()(db);
  }

  /** Registers a listener; returns the function that removes it. */
  onAppended(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners about a committed head (the pipeline calls it after its batches). */
  notifyAppended(head: number): void {
    for (const listener of this.listeners) {
      try {
        listener(head);
      } catch {
        // A listener's failure must not fail the append that already committed.
      }
    }
  }

  async append(
    writes: StreamWrite[],
    options: Omit<AppendOptions, 'catalogue'> = {},
  ): Promise<AppendResult> {
    const result = await append(this.db, writes, {
      ...options,
      catalogue: this.catalogue,
      headHint: this.headHint,
    });
    const last = result.positions.at(-1);
    if (!result.duplicate && last !== undefined) this.notifyAppended(last);
    return result;
  }

  readStream(streamId: string, afterVersion = 0): Promise<RecordedEvent[]> {
    return readStream(this.db, streamId, { afterVersion, catalogue: this.catalogue });
  }

  /** Several streams' events in one read, by stream (in version order). */
  readStreams(streamIds: string[]): Promise<Map<string, RecordedEvent[]>> {
    return readStreams(this.db, streamIds, this.catalogue);
  }

  readAll(opts: { after: number; limit: number }): Promise<RecordedEvent[]> {
    return readAll(this.db, { ...opts, catalogue: this.catalogue });
  }

  headPosition(): Promise<number> {
    return headPosition(this.db);
  }
}
