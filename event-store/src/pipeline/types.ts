import type { EventMetadata } from '../types.js';
import type { ReadGuard } from '../write.js';
import type { StreamState } from './state-cache.js';

/** How the streams of one category fold into a state (pure functions). */
export interface StreamType<State = any> {
  category: string;
  initialState(): State;
  evolve(state: State, event: { type: string; data: any }): State;
}

export interface CommandWrite {
  streamId: string;
  events: { type: string; data: unknown }[];
}

/**
 * A command for the pipeline: the streams it reads (each of a registered
 * category) and a pure `decide` from their states to the events to append and
 * the caller's result. `decide` may throw an AppError to refuse; it must not
 * mutate the states it is given.
 */
export interface Command<Result = unknown> {
  /** A key seen before returns the first result and appends nothing. */
  idempotencyKey?: string;
  streams: string[];
  decide(states: Record<string, StreamState>): { writes: CommandWrite[]; result: Result };
  metadata?: EventMetadata;
  /**
   * Rows kept outside the log that `decide` relied on (a user read from a cache), each with the
   * version read: the command takes effect only if none changed since — otherwise it fails
   * with StaleReadError, appending nothing, for the caller to read them again. A refusal is
   * checked the same way before it is delivered.
   */
  guards?: readonly ReadGuard[];
}

export interface CommandOutcome<Result = unknown> {
  result: Result;
  positions: number[];
}

export interface PipelineOptions {
  /** Most commands in one transaction (config COMMAND_BATCH_MAX). */
  batchMax?: number;
  /** How long an idle pipeline waits to gather a batch (config COMMAND_BATCH_WAIT_MS). */
  batchWaitMs?: number;
  /** Individual retries of a command after a conflict with another process. */
  maxRetries?: number;
  /** Streams whose state is kept in memory. */
  cacheSize?: number;
}
