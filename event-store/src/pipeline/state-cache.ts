/** A stream's folded state and the version it reflects. */
export interface StreamState<State = any> {
  state: State;
  version: number;
}

/**
 * Per-stream states kept between commands, least recently used dropped first.
 * An entry may be stale (another process appended): the unique
 * (stream_id, version) constraint refuses the append, and the pipeline drops
 * the entry and reloads.
 */
export class StateCache {
  private readonly entries = new Map<string, StreamState>();

  constructor(readonly maxEntries = 10_000) {}

  get(streamId: string): StreamState | undefined {
    const entry = this.entries.get(streamId);
    if (entry) {
      this.entries.delete(streamId);
      this.entries.set(streamId, entry);
    }
    return entry;
  }

  set(streamId: string, entry: StreamState): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  delete(streamId: string): void {
    this.entries.delete(streamId);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
