import type { Kysely } from 'kysely';
import type { ProjectionTables } from './migrations/tables.js';
import { EVENTS_CHANNEL } from '@filiere/event-store';
import type { Logger } from '@filiere/platform';
import { listenChannel, type Listener } from './pg-listen.js';
import type { Projector } from './projector.js';
import { catchUp, type RunOptions } from './runner.js';
import { skipIrrelevantAll } from './checkpoints.js';

export interface InProcessOptions<
  DB extends ProjectionTables = ProjectionTables,
> extends RunOptions {
  db: Kysely<DB>;
  projectors: readonly Projector[];
  logger: Logger;
  /** LISTEN on filiere_events with this URL (appends from any process wake the projectors). */
  databaseUrl?: string;
  /** Safety-net wake-up period (default 5 s). */
  sweepMs?: number;
  /** First retry delay after a failure, doubled up to 60 s (default 500 ms). */
  retryMs?: number;
}

export interface InProcessProjections {
  /** Wake every projector (call after an append; cheap and coalesced). */
  wake(): void;
  /** Resolves when every projector has read every event committed before the call. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs the projectors inside this process (no Redis): each one catches up
 * whenever woken (NOTIFY on filiere_events, `wake()`, and a periodic sweep),
 * one run at a time per projector; wake-ups during a run coalesce into one
 * more run. A failing projector retries with exponential backoff while the
 * others go on.
 */
export function startInProcessProjections<DB extends ProjectionTables>(
  opts: InProcessOptions<DB>,
): InProcessProjections {
  const retryMs = opts.retryMs ?? 500;
  let closed = false;
  const states = opts.projectors.map((projector) => ({
    projector,
    running: undefined as Promise<void> | undefined,
    dirty: false,
    /** The last probe found events of its types (RunOptions.relevant for the next run). */
    relevant: false,
    failures: 0,
    retry: undefined as NodeJS.Timeout | undefined,
  }));
  type State = (typeof states)[number];

  const run = (state: State, relevant = false): Promise<void> => {
    if (closed) return Promise.resolve();
    state.dirty = true;
    if (relevant) state.relevant = true;
    if (state.running) return state.running;
    state.running = (async () => {
      while (state.dirty && !closed) {
        state.dirty = false;
        const known = state.relevant;
        state.relevant = false;
        try {
          await catchUp(opts.db, state.projector, known ? { ...opts, relevant: true } : opts);
          state.failures = 0;
        } catch (error) {
          state.failures += 1;
          const delay = Math.min(60_000, retryMs * 2 ** (state.failures - 1));
          opts.logger.error(
            { err: error, projector: state.projector.name, retryInMs: delay },
            'projector failed; retrying',
          );
          if (!closed && !state.retry) {
            state.retry = setTimeout(() => {
              state.retry = undefined;
              void run(state);
            }, delay);
            state.retry.unref();
          }
          break;
        }
      }
    })().finally(() => {
      state.running = undefined;
      if (state.dirty && !closed && !state.retry) void run(state);
    });
    return state.running;
  };

  // One statement per wake-up settles every projector with nothing of its types to apply
  // (skipIrrelevantAll); only the others run their batches. Wake-ups during it coalesce.
  let probing: Promise<void> | undefined;
  let probeAgain = false;
  const runAll = (names?: Set<string>) => {
    for (const s of states) {
      if (!s.retry && (!names || names.has(s.projector.name))) void run(s, names !== undefined);
    }
  };
  const wake = () => {
    if (closed) return;
    if (probing) {
      probeAgain = true;
      return;
    }
    probing = (async () => {
      do {
        probeAgain = false;
        const idle = states.filter((s) => !s.running && !s.retry).map((s) => s.projector);
        // Those running already go round once more (they see the new events).
        for (const s of states) if (s.running) void run(s);
        if (!idle.length) continue;
        try {
          runAll(await skipIrrelevantAll(opts.db, idle));
        } catch (error) {
          opts.logger.warn({ err: error }, 'projections: probe failed; running every projector');
          runAll();
        }
      } while (probeAgain && !closed);
    })().finally(() => {
      probing = undefined;
    });
  };
  let listener: Listener | undefined;
  if (opts.databaseUrl) {
    listener = listenChannel(opts.databaseUrl, EVENTS_CHANNEL, wake, {
      onError: (err) => opts.logger.warn({ err }, 'events LISTEN connection lost'),
      onReconnect: wake,
    });
  }
  const sweep = setInterval(wake, opts.sweepMs ?? 5000);
  sweep.unref();
  wake();

  return {
    wake,
    async idle() {
      // A run started now reads everything committed before this call.
      await Promise.all(
        states.map(async (s) => {
          if (s.running) await s.running;
          await run(s);
        }),
      );
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const s of states) if (s.retry) clearTimeout(s.retry);
      await listener?.close();
      await Promise.all(states.map((s) => s.running));
    },
  };
}
