/** A stream's folded state and the version it reflects. */
export interface StreamState<State = any> {
  state: State;
  version: number;
}

/**
 * Per-stream states kept between commands, least recently used dropped first.
 * An entry may be stale (another process appended): the unique
 * (stream_id, version) constraint refuses the append, and the pipeline marks the
 * entry stale. A stale entry is still the true state at its version (the log is
 * append-only), so reloading it reads only the events after that version.
 */
export class StateCache {
  private readonly entries = new Map<string, StreamState & { stale?: true }>();

  constructor(readonly maxEntries = 10_000) {}

  /** The entry, unless absent or stale. */
  get(streamId: string): StreamState | undefined {
    const entry = this.entries.get(streamId);
    if (!entry || entry.stale) return undefined;
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    return entry;
  }

  /** A stale entry to bring up to date (fold the events after its version). */
  getStale(streamId: string): StreamState | undefined {
    const entry = this.entries.get(streamId);
    return entry?.stale ? { state: entry.state, version: entry.version } : undefined;
  }

  set(streamId: string, entry: StreamState): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, { state: entry.state, version: entry.version });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Another process may have appended to the stream: reload before use. */
  markStale(streamId: string): void {
    const entry = this.entries.get(streamId);
    if (entry)
      this.entries.set(streamId, { state: entry.state, version: entry.version, stale: true });
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
