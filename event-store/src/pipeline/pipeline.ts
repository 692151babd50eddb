import { ConcurrencyError, StaleReadError } from '../errors.js';
import type { EventStore } from '../event-store.js';
import { findCommands } from '../idempotency.js';
import { guardVersions, readStreams, streamVersions } from '../read.js';
import { streamCategory, type EventMetadata } from '../types.js';
import {
  IdempotencyKeyTakenError,
  isValueRejection,
  prepareEvents,
  UnstorableValueError,
  writePrepared,
  type PendingCommandRecord,
  type PendingEvent,
  type PreparedEvents,
  type ReadGuard,
} from '../write.js';
import { Batcher } from './batcher.js';
import { StateCache, type StreamState } from './state-cache.js';
import type { Command, CommandOutcome, PipelineOptions, StreamType } from './types.js';

interface Entry {
  command: Command<any>;
  resolve(outcome: CommandOutcome<any>): void;
  reject(error: unknown): void;
}

interface Decided {
  entry: Entry;
  offset: number;
  count: number;
  result: unknown;
}

interface Plan {
  /** Entries left after idempotency answers (followers of a same key excluded). */
  pending: Entry[];
  base: Map<string, StreamState>;
  overlay: Map<string, StreamState>;
  decided: Decided[];
  refused: [Entry, unknown][];
  records: PendingCommandRecord[];
  prepared: PreparedEvents;
  /** The read guards of the decided commands, checked by the append. */
  guards: ReadGuard[];
}

/**
 * The command pipeline: `handle(command)` loads the states the command reads,
 * runs its pure `decide`, and appends — concurrent commands gathered into one
 * transaction (group commit). See docs/event-store.md.
 */
export class CommandPipeline {
  private readonly streamTypes = new Map<string, StreamType>();
  private readonly cache: StateCache;
  private readonly batcher: Batcher<Entry>;
  private readonly maxRetries: number;
  private closed = false;
  /** Whether the batch being written committed as planned, and the states it leaves. */
  private previous: Promise<boolean> = Promise.resolve(true);
  private inFlight = new Map<string, StreamState>();

  constructor(
    readonly store: EventStore,
    options: PipelineOptions = {},
  ) {
    this.cache = new StateCache(options.cacheSize ?? 10_000);
    this.maxRetries = options.maxRetries ?? 5;
    this.batcher = new Batcher<Entry>(
      (entries) => this.processBatch(entries),
      options.batchMax ?? 256,
      options.batchWaitMs ?? 2,
    );
  }

  registerStreamType(type: StreamType): this {
    const existing = this.streamTypes.get(type.category);
    if (existing && existing !== type) {
      throw new Error(`A stream type is already registered for category "${type.category}"`);
    }
    this.streamTypes.set(type.category, type);
    return this;
  }

  handle<Result>(command: Command<Result>): Promise<CommandOutcome<Result>> {
    if (this.closed) return Promise.reject(new Error('The command pipeline is closed'));
    return new Promise((resolve, reject) => this.batcher.push({ command, resolve, reject }));
  }

  /** Same-process listeners told the new head after each committed batch. */
  onAppended(listener: (head: number) => void): () => void {
    return this.store.onAppended(listener);
  }

  /** Stops taking commands and waits for those already taken. */
  async close(): Promise<void> {
    this.closed = true;
    await this.batcher.drained();
    await this.previous;
  }

  /** Forgets the cached states (e.g. after events were appended outside the pipeline). */
  clearCache(): void {
    this.cache.clear();
  }

  /**
   * Plans a batch while the previous one is still being written (its states
   * serve as the base), then waits for that write: if it committed, this batch
   * is written in turn (without waiting, so the next batch can be planned); if
   * not, the plan rested on states that never existed and the batch is redone
   * from committed states. Refusals are only delivered once the base is known.
   */
  private async processBatch(entries: Entry[]): Promise<void> {
    try {
      const previous = this.previous;
      let plan: Plan | undefined;
      try {
        // The first try of a batch does not look its keys up: see settleKnownKeys.
        plan = await this.plan(entries, this.inFlight, false);
      } catch {
        plan = undefined; // redone below, from committed states
      }
      const committed = await previous;
      // The batch in flight has settled: its states are in the cache, or must not be used.
      this.inFlight = new Map();
      if (!plan || !committed) {
        this.previous = Promise.resolve(true);
        await this.settleTogether(plan ? plan.pending : entries, this.maxRetries + 1);
        return;
      }
      const redo = await this.confirmRefusals(plan.refused, false);
      if (plan.prepared.n === 0 && plan.records.length === 0) {
        await this.resolveUnwritten(plan);
        await this.settleAlone(redo, this.maxRetries + 1);
        return;
      }
      this.inFlight = plan.overlay;
      this.previous = this.write(plan)
        .catch((error: unknown) => {
          for (const d of plan.decided) d.entry.reject(error);
          return false;
        })
        .then(async (ok) => {
          await this.settleAlone(redo, this.maxRetries + 1);
          return ok && redo.length === 0;
        });
    } catch (error) {
      // An unexpected failure must not leave callers waiting; settled promises ignore this.
      for (const entry of entries) entry.reject(error);
    }
  }

  /** Writes a planned batch; true when it committed as planned. */
  private async write(plan: Plan): Promise<boolean> {
    let firstPosition: number;
    let head: number;
    try {
      ({ firstPosition, head } = await writePrepared(
        this.store.db,
        plan.prepared,
        plan.records,
        this.store.headHint,
        plan.guards,
      ));
    } catch (error) {
      if (error instanceof StaleReadError) {
        // Nothing was appended and the streams are as cached: the commands that read a stale
        // row fail (their callers read it again); the others are tried again without them.
        await this.settleTogether(this.dropStale(plan, error), this.maxRetries + 1);
        return false;
      }
      for (const id of plan.base.keys()) this.cache.markStale(id);
      if (error instanceof ConcurrencyError || error instanceof IdempotencyKeyTakenError) {
        // A conflict with another process failed the whole batch: retry it, still as one
        // batch, on states brought up to date. A key recorded before (this first try did not
        // look keys up) is no conflict: its command gets its first result even with
        // `maxRetries: 0`.
        await this.settleTogether(
          plan.decided.map((d) => d.entry),
          error instanceof IdempotencyKeyTakenError ? this.maxRetries + 1 : this.maxRetries,
        );
        return false;
      }
      if (error instanceof UnstorableValueError) {
        // A value of one command failed the whole batch: the same retry path, split in halves
        // until that command is alone (see isolate).
        await this.isolate(
          plan.decided.map((d) => d.entry),
          error,
        );
        return false;
      }
      throw error;
    }
    for (const [id, state] of plan.overlay) this.cache.set(id, state);
    if (plan.prepared.n > 0) this.store.notifyAppended(head);
    for (const d of plan.decided) {
      const positions = Array.from({ length: d.count }, (_, i) => firstPosition + d.offset + i);
      d.entry.resolve({ result: d.result, positions });
    }
    return true;
  }

  /**
   * Runs the entries as one batch from committed states (group commit kept when another
   * process keeps appending), at most `tries` times; what still conflicts then is run
   * alone, one entry at a time, with as many tries.
   */
  private async settleTogether(entries: Entry[], tries: number): Promise<void> {
    let again = entries;
    for (let attempt = 0; again.length > 1 && attempt < tries; attempt++) {
      again = await this.attempt(again);
    }
    await this.settleAlone(again, tries);
  }

  /** Runs each entry alone (at most `tries` transactions) from committed states. */
  private async settleAlone(entries: Entry[], tries: number): Promise<void> {
    for (const entry of entries) {
      let again = [entry];
      for (let attempt = 0; again.length > 0 && attempt < tries; attempt++) {
        again = await this.attempt(again);
      }
      if (again.length > 0) {
        entry.reject(
          new ConcurrencyError('Le flux a été modifié entre-temps ; réessayez.', {
            reason: 'STREAM_VERSION_CONFLICT',
          }),
        );
      }
    }
  }

  /**
   * A batch failed for a value of one (or more) of its commands, which would fail it again
   * whatever the states: nothing was appended, and the entries are settled again in two
   * halves, in order, each half as a batch from committed states (so each half that holds
   * no such command commits once, and one that does is split again). A command alone gets
   * the error: only it fails, after about 2·log2(n) extra statements.
   */
  private async isolate(entries: Entry[], error: unknown): Promise<void> {
    if (entries.length === 1) {
      entries[0]!.reject(error);
      return;
    }
    const half = Math.ceil(entries.length / 2);
    await this.settleTogether(entries.slice(0, half), this.maxRetries + 1);
    await this.settleTogether(entries.slice(half), this.maxRetries + 1);
  }

  /** One non-speculative transaction; returns the entries to retry after a conflict. */
  private async attempt(entries: Entry[]): Promise<Entry[]> {
    let plan: Plan;
    try {
      plan = await this.plan(entries, new Map(), true);
    } catch (error) {
      // Planning reads the keys and streams the commands name, and encodes their events: a
      // value the database refuses there (or one canonical JSON cannot write) is one command's.
      const failure = isValueRejection(error) ? new UnstorableValueError(error) : error;
      if (
        entries.length > 1 &&
        (failure instanceof UnstorableValueError || error instanceof TypeError)
      ) {
        await this.isolate(entries, failure);
        return [];
      }
      for (const entry of entries) entry.reject(failure);
      return [];
    }
    const redo = await this.confirmRefusals(plan.refused, true);
    if (plan.prepared.n === 0 && plan.records.length === 0) {
      await this.resolveUnwritten(plan);
      return redo;
    }
    try {
      const { firstPosition, head } = await writePrepared(
        this.store.db,
        plan.prepared,
        plan.records,
        this.store.headHint,
        plan.guards,
      );
      for (const [id, state] of plan.overlay) this.cache.set(id, state);
      if (plan.prepared.n > 0) this.store.notifyAppended(head);
      for (const d of plan.decided) {
        const positions = Array.from({ length: d.count }, (_, i) => firstPosition + d.offset + i);
        d.entry.resolve({ result: d.result, positions });
      }
      return redo;
    } catch (error) {
      if (error instanceof StaleReadError) return [...this.dropStale(plan, error), ...redo];
      for (const id of plan.base.keys()) this.cache.markStale(id);
      if (error instanceof ConcurrencyError || error instanceof IdempotencyKeyTakenError) {
        return [...plan.decided.map((d) => d.entry), ...redo];
      }
      if (error instanceof UnstorableValueError) {
        await this.isolate(
          plan.decided.map((d) => d.entry),
          error,
        );
        return redo;
      }
      for (const d of plan.decided) d.entry.reject(error);
      return redo;
    }
  }

  /**
   * A refusal decided on a cached state is only final if no other process
   * appended to the streams it read: those found stale are dropped from the
   * cache and returned to be decided again; the others are delivered. When the
   * versions cannot be read, no refusal is delivered: each fails with that error.
   *
   * Unless `keysChecked` (the plan looked its keys up), a refused command whose key was
   * recorded by an earlier try gets that first result instead: the repeat of a transfer
   * that went through answers 201 with it, even when the wallet could not pay it again.
   * If the keys cannot be read, such a command fails with that error (a 500 the client
   * retries) rather than with a refusal that may be false.
   */
  private async confirmRefusals(
    refused: [Entry, unknown][],
    keysChecked: boolean,
  ): Promise<Entry[]> {
    if (refused.length === 0) return [];
    const ids = [...new Set(refused.flatMap(([entry]) => entry.command.streams))];
    const keys = keysChecked
      ? []
      : refused.map(([entry]) => entry.command.idempotencyKey).filter((k): k is string => !!k);
    const guards = guardsOf(refused.map(([entry]) => entry));
    const stale = new Set<string>();
    const [versions, known, current] = await Promise.allSettled([
      streamVersions(this.store.db, ids),
      findCommands(this.store.db, keys),
      guards.length ? guardVersions(this.store.db, [...new Set(guards.map((g) => g.key))]) : null,
    ]);
    if (current.status === 'rejected') {
      for (const [entry] of refused) entry.reject(current.reason);
      return [];
    }
    if (versions.status === 'rejected') {
      // Cannot check: a refusal decided on a stale state would be false (the contract runner
      // then failed a contract another process had delivered, and its payment was lost: found
      // by the bank test when PostgreSQL shut down at that moment). The commands fail with the
      // database's error instead — a 500 the caller retries — and their states are reloaded.
      for (const id of ids) this.cache.markStale(id);
      for (const [entry] of refused) entry.reject(versions.reason);
      return [];
    }
    for (const id of ids) {
      const cached = this.cache.get(id);
      if (cached && cached.version < versions.value.get(id)!) stale.add(id);
    }
    for (const id of stale) this.cache.markStale(id);
    const redo: Entry[] = [];
    for (const [entry, error] of refused) {
      // A refusal decided on a row that changed since it was read may be false: the caller
      // reads it again (a repeat whose key is recorded still gets its first result below).
      const moved = (entry.command.guards ?? []).filter(
        (g) => current.value!.get(g.key) !== g.version,
      );
      const key = entry.command.idempotencyKey;
      if (key && !keysChecked) {
        if (known.status === 'rejected') {
          entry.reject(known.reason);
          continue;
        }
        const seen = known.value.get(key);
        if (seen) {
          entry.resolve({ result: seen.result, positions: seen.positions });
          continue;
        }
      }
      if (moved.length) entry.reject(new StaleReadError(moved));
      else if (entry.command.streams.some((id) => stale.has(id))) redo.push(entry);
      else entry.reject(error);
    }
    return redo;
  }

  /**
   * Decides the entries in order on `speculative` (the batch being written),
   * then the cache, then the log; each sees the states the earlier ones left.
   * Commands answered by their idempotency key are settled here.
   */
  private async plan(
    entries: Entry[],
    speculative: Map<string, StreamState>,
    lookUpKeys: boolean,
  ): Promise<Plan> {
    const pending = await this.settleKnownKeys(entries, lookUpKeys);
    const base = await this.loadStates(pending, speculative);
    const overlay = new Map<string, StreamState>();
    const rows: PendingEvent[] = [];
    const records: PendingCommandRecord[] = [];
    const decided: Decided[] = [];
    const refused: [Entry, unknown][] = [];
    for (const entry of pending) {
      try {
        const changes = this.decideOne(entry.command, (id) => overlay.get(id) ?? base.get(id)!);
        const offset = rows.length;
        for (const row of changes.rows) rows.push(row);
        for (const [id, state] of changes.states) overlay.set(id, state);
        const count = changes.rows.length;
        decided.push({ entry, offset, count, result: changes.result });
        const key = entry.command.idempotencyKey;
        if (key) records.push({ key, result: changes.result, offset, count });
      } catch (error) {
        refused.push([entry, error]);
      }
    }
    const guards = guardsOf(decided.map((d) => d.entry));
    return {
      pending,
      base,
      overlay,
      decided,
      refused,
      records,
      prepared: prepareEvents(rows),
      guards,
    };
  }

  /**
   * The entries of a plan whose append found a stale read guard: those that named one are
   * rejected with the error; the others are returned, to be planned again without them.
   */
  private dropStale(plan: Plan, error: StaleReadError): Entry[] {
    const rest: Entry[] = [];
    for (const { entry } of plan.decided) {
      const moved = (entry.command.guards ?? []).filter((g) => error.names([g]));
      if (moved.length) entry.reject(new StaleReadError(moved));
      else rest.push(entry);
    }
    return rest;
  }

  /**
   * Settles a plan that writes nothing (no events, no keys): its results stand unless a read
   * guard they rest on moved (those fail with StaleReadError, or with the error of the read).
   */
  private async resolveUnwritten(plan: Plan): Promise<void> {
    let current: Map<string, number> | undefined;
    if (plan.guards.length) {
      try {
        current = await guardVersions(this.store.db, [...new Set(plan.guards.map((g) => g.key))]);
      } catch (error) {
        for (const d of plan.decided) d.entry.reject(error);
        return;
      }
    }
    for (const d of plan.decided) {
      const moved = (d.entry.command.guards ?? []).filter((g) => current!.get(g.key) !== g.version);
      if (moved.length) d.entry.reject(new StaleReadError(moved));
      else d.entry.resolve({ result: d.result, positions: [] });
    }
  }

  /**
   * Answers commands whose key was recorded before; same-key commands share one outcome.
   *
   * Without `lookUp` (a batch's first try) the keys are not read: a key is new nearly always
   * (a client repeats a request only when it lost the answer), and the append refuses a
   * recorded one (`commands` primary key) with nothing written, after which the batch is
   * tried again WITH the lookup and the repeat gets its first result. That saves the batch
   * one round trip to PostgreSQL on its way to the append; a refused command's key is looked
   * up in confirmRefusals.
   */
  private async settleKnownKeys(entries: Entry[], lookUp: boolean): Promise<Entry[]> {
    const keys = entries.map((e) => e.command.idempotencyKey).filter((k): k is string => !!k);
    if (keys.length === 0) return entries;
    const known = lookUp ? await findCommands(this.store.db, keys) : new Map<string, never>();
    const firstWithKey = new Map<string, Entry>();
    const pending: Entry[] = [];
    for (const entry of entries) {
      const key = entry.command.idempotencyKey;
      const seen = key ? known.get(key) : undefined;
      if (seen) {
        entry.resolve({ result: seen.result, positions: seen.positions });
        continue;
      }
      const first = key ? firstWithKey.get(key) : undefined;
      if (first) {
        chain(first, entry);
        continue;
      }
      if (key) firstWithKey.set(key, entry);
      pending.push(entry);
    }
    return pending;
  }

  /** States of every stream the entries read: from the cache, else folded from the log. */
  private async loadStates(
    entries: Entry[],
    speculative: Map<string, StreamState>,
  ): Promise<Map<string, StreamState>> {
    const states = new Map<string, StreamState>();
    const missing = new Set<string>();
    for (const entry of entries) {
      for (const id of entry.command.streams) {
        if (states.has(id) || missing.has(id)) continue;
        const known = speculative.get(id) ?? this.cache.get(id);
        if (known) states.set(id, known);
        else missing.add(id);
      }
    }
    if (missing.size === 0) return states;
    // A stale state is brought up to date with the events after its version only.
    const known = new Map<string, StreamState>();
    for (const id of missing) {
      const stale = this.cache.getStale(id);
      if (stale) known.set(id, stale);
    }
    const events = await readStreams(
      this.store.db,
      [...missing],
      this.store.catalogue,
      new Map([...known].map(([id, s]) => [id, s.version])),
    );
    for (const id of missing) {
      const type = this.streamTypes.get(streamCategory(id));
      if (!type) continue; // decideOne refuses the command with a clear message.
      let state = known.get(id)?.state ?? type.initialState();
      let version = known.get(id)?.version ?? 0;
      for (const event of events.get(id)!) {
        state = type.evolve(state, event);
        version = event.version;
      }
      const loaded = { state, version };
      states.set(id, loaded);
      this.cache.set(id, loaded);
    }
    return states;
  }

  private decideOne(
    command: Command<any>,
    stateOf: (streamId: string) => StreamState,
  ): { rows: PendingEvent[]; states: Map<string, StreamState>; result: unknown } {
    const states: Record<string, StreamState> = {};
    for (const id of command.streams) {
      if (!this.streamTypes.has(streamCategory(id))) {
        throw new Error(`No stream type is registered for stream "${id}"`);
      }
      states[id] = stateOf(id);
    }
    const { writes, result } = command.decide(states);
    const metadata: EventMetadata = { ...command.metadata };
    if (command.idempotencyKey && !metadata.commandId) metadata.commandId = command.idempotencyKey;
    const rows: PendingEvent[] = [];
    const next = new Map<string, StreamState>();
    for (const write of writes) {
      const current = next.get(write.streamId) ?? states[write.streamId];
      if (!current) throw new Error(`Command writes "${write.streamId}" it did not load`);
      const type = this.streamTypes.get(streamCategory(write.streamId))!;
      let { state, version } = current;
      for (const event of write.events) {
        const encoded = this.store.catalogue.encode(event);
        version += 1;
        state = type.evolve(state, { type: event.type, data: encoded.data });
        rows.push({ streamId: write.streamId, version, type: event.type, ...encoded, metadata });
      }
      next.set(write.streamId, { state, version });
    }
    return { rows, states: next, result };
  }
}

/** The read guards of these entries' commands (one per key and version). */
function guardsOf(entries: Entry[]): ReadGuard[] {
  const seen = new Set<string>();
  const guards: ReadGuard[] = [];
  for (const entry of entries) {
    for (const guard of entry.command.guards ?? []) {
      const id = `${guard.version}:${guard.key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      guards.push(guard);
    }
  }
  return guards;
}

function chain(first: Entry, follower: Entry): void {
  const { resolve, reject } = first;
  first.resolve = (outcome) => {
    resolve(outcome);
    follower.resolve(outcome);
  };
  first.reject = (error) => {
    reject(error);
    follower.reject(error);
  };
}
