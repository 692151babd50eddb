/**
 * The one command runner of every context: `handleCommand(pipeline, command)`.
 *
 * A command names the streams it reads, each with its stream type, so its `decide` receives
 * states typed by that declaration (no cast). The runner adds what every command needs and
 * no context writes again:
 *
 * - **Idempotency.** A command with `idempotency` is recorded under its key with the
 *   fingerprint of its request (SHA-256 of the canonical JSON of the command's name and
 *   validated input). A repeat of the same request answers the first result and appends
 *   nothing; the key reused for another request is refused with IDEMPOTENCY_KEY_REUSED (422)
 *   and appends nothing. A result recorded without a fingerprint answers as it is.
 * - **Opening.** `open` names streams the command may create: when the stream is new, its
 *   opening events are folded before `decide` sees it and appended in front of the
 *   command's own events on it — only when the command writes something, so a refusal
 *   leaves the log untouched.
 * - **One retry policy.** Another process appending to a stream first surfaces as a
 *   ConcurrencyError once the pipeline's in-batch retries are spent; the runner tries the
 *   command again (same key, so it takes effect at most once) after a pause with full
 *   jitter, `RETRY.attempts` times at most, so a hot stream shared by several API processes
 *   answers the command's result or refusal, not a 409.
 *
 * Invariant: for one key, the log holds the command's events at most once, whatever the
 * number of attempts, processes or repeats.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BusinessRuleError, ConcurrencyError } from '@filiere/platform';
import { canonicalJson } from '../canonical-json.js';
import { streamCategory, type EventMetadata } from '../types.js';
import type { ReadGuard } from '../write.js';
import type { CommandPipeline } from './pipeline.js';
import type { StreamState } from './state-cache.js';
import type { CommandWrite, StreamType } from './types.js';

/** The one message of a key reused for another request (422, reason IDEMPOTENCY_KEY_REUSED). */
export const IDEMPOTENCY_KEY_REUSED =
  'Cette Idempotency-Key a déjà servi pour une autre requête : utilisez une nouvelle clé pour une nouvelle opération';

/** A stream a command reads: its id and the type that folds it. */
export interface StreamRef<State> {
  readonly id: string;
  readonly type: StreamType<State>;
}

/** The stream `id` of `type`; refuses an id of another category (a programming error). */
export function streamRef<State>(type: StreamType<State>, id: string): StreamRef<State> {
  if (streamCategory(id) !== type.category) {
    throw new Error(`Stream "${id}" is not of category "${type.category}"`);
  }
  return { id, type };
}

export type StreamRefs = Record<string, StreamRef<any>>;

/** The folded state of each declared stream, by the command's own names. */
export type StatesOf<S extends StreamRefs> = {
  readonly [K in keyof S]: S[K] extends StreamRef<infer State> ? State : never;
};

/** The version each declared stream's state reflects (0 for a stream with no event). */
export type VersionsOf<S extends StreamRefs> = { readonly [K in keyof S]: number };

/** What a decider returns: events per stream (possibly none) and the command's answer. */
export interface Decided<R, W extends CommandWrite = CommandWrite> {
  writes: readonly W[];
  result: R;
}

export interface Idempotency {
  /** The stored key, already scoped by its caller (user and command). */
  key: string;
  /** requestFingerprint(command, input) of the request the key first answered. */
  fingerprint: string;
}

export interface CommandSpec<S extends StreamRefs, R> {
  streams: S;
  decide(states: StatesOf<S>, versions: VersionsOf<S>): Decided<R>;
  /**
   * Streams the command may create: given the stream's state, the events that open it, or an
   * empty list when it is open already.
   */
  open?: {
    readonly [K in keyof S]?: (state: StatesOf<S>[K]) => readonly CommandWrite['events'][number][];
  };
  idempotency?: Idempotency | undefined;
  metadata?: EventMetadata;
  /** Rows read outside the log that the decision rests on (see Command.guards). */
  guards?: readonly ReadGuard[];
}

/** Retries after a conflict with another process: full jitter, capped. */
export const RETRY = { attempts: 30, baseMs: 2, capMs: 50 } as const;

/** SHA-256 of the canonical JSON of a command's name and validated input. */
export function requestFingerprint(command: string, input: unknown): string {
  return createHash('sha256').update(canonicalJson({ command, input }), 'utf8').digest('hex');
}

/** How a command's first result is recorded under its key. */
interface Fingerprinted<R> {
  $fingerprint: string;
  $result: R;
}

function isFingerprinted(value: unknown): value is Fingerprinted<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $fingerprint?: unknown }).$fingerprint === 'string' &&
    '$result' in value
  );
}

/** Folds `open`'s events into the states and returns the decider the pipeline runs. */
function decider<S extends StreamRefs, R>(
  command: CommandSpec<S, R>,
): (loaded: Record<string, StreamState>) => { writes: CommandWrite[]; result: unknown } {
  const names = Object.keys(command.streams) as (keyof S & string)[];
  const fingerprint = command.idempotency?.fingerprint;
  return (loaded) => {
    const states = {} as Record<keyof S, unknown>;
    const versions = {} as Record<keyof S, number>;
    const opening: CommandWrite[] = [];
    for (const name of names) {
      const ref = command.streams[name]!;
      const current = loaded[ref.id]!;
      let state = current.state;
      const open = command.open?.[name];
      const events = open ? open(state) : [];
      for (const event of events) state = ref.type.evolve(state, event);
      if (events.length > 0) opening.push({ streamId: ref.id, events: [...events] });
      states[name] = state;
      versions[name] = current.version;
    }
    const decided = command.decide(states as StatesOf<S>, versions as VersionsOf<S>);
    let writes: CommandWrite[] = decided.writes.filter((w) => w.events.length > 0);
    if (opening.length > 0 && writes.length > 0) {
      const own = (id: string) => writes.find((w) => w.streamId === id)?.events ?? [];
      writes = [
        ...opening.map((o) => ({
          streamId: o.streamId,
          events: [...o.events, ...own(o.streamId)],
        })),
        ...writes.filter((w) => !opening.some((o) => o.streamId === w.streamId)),
      ];
    }
    const result =
      fingerprint === undefined
        ? decided.result
        : { $fingerprint: fingerprint, $result: decided.result };
    return { writes, result };
  };
}

/** Runs a command through the pipeline; see the header for its rules. */
export async function handleCommand<S extends StreamRefs, R>(
  pipeline: CommandPipeline,
  command: CommandSpec<S, R>,
): Promise<R> {
  const ids = Object.values(command.streams).map((ref) => ref.id);
  if (new Set(ids).size !== ids.length) throw new Error('A command declares a stream twice');
  const decide = decider(command);
  const idempotency = command.idempotency;
  for (let attempt = 0; ; attempt++) {
    try {
      const { result } = await pipeline.handle<unknown>({
        ...(idempotency ? { idempotencyKey: idempotency.key } : {}),
        streams: ids,
        ...(command.metadata ? { metadata: command.metadata } : {}),
        ...(command.guards ? { guards: command.guards } : {}),
        decide,
      });
      if (!isFingerprinted(result)) return result as R;
      if (idempotency && result.$fingerprint !== idempotency.fingerprint) {
        throw new BusinessRuleError(IDEMPOTENCY_KEY_REUSED, { reason: 'IDEMPOTENCY_KEY_REUSED' });
      }
      return result.$result as R;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= RETRY.attempts) throw error;
      await sleep(1 + Math.random() * Math.min(RETRY.capMs, RETRY.baseMs * 2 ** attempt));
    }
  }
}
