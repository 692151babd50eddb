import type { Kysely } from 'kysely';
import type { ProjectionTables } from './migrations/tables.js';
import { EVENTS_CHANNEL } from '@filiere/event-store';
import type { Logger } from '@filiere/platform';
import { catchUpGroup } from './group.js';
import { ensureCheckpoints } from './checkpoints.js';
import { listenChannel, type Listener } from './pg-listen.js';
import type { Projector } from './projector.js';
import { catchUp, ProjectionFailure, type RunOptions } from './runner.js';
import { BatchPacer } from './pacer.js';

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
  /**
   * How the projectors are batched: each group runs its projectors in ONE transaction per
   * batch (`runGroupBatch`: the events read and decoded once for the group), the groups side
   * by side. Names not listed form one more group. Default: one group of all of them.
   */
  groups?: readonly (readonly string[])[];
  /** Awaited before each group batch (GroupOptions.beforeBatch). */
  beforeBatch?: () => Promise<void>;
  /**
   * Least time between the starts of two runs of a group (default 0): under a steady flow the
   * events of this long gather into one batch (`BatchPacer`); after a quiet spell a run starts
   * at once. `idle()` never waits for it.
   */
  gatherMs?: number;
}

export interface InProcessProjections {
  /** Wake every projector (call after an append; cheap and coalesced). */
  wake(): void;
  /** Resolves when every projector has read every event committed before the call. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Member {
  projector: Projector;
  /** Failed in its group: it runs alone (catchUp, with backoff) until it has caught up. */
  alone: boolean;
  running: Promise<void> | undefined;
  dirty: boolean;
  failures: number;
  retry: NodeJS.Timeout | undefined;
}

interface Group {
  members: Member[];
  pacer: BatchPacer;
  running: Promise<void> | undefined;
  dirty: boolean;
  failures: number;
  retry: NodeJS.Timeout | undefined;
}

/**
 * Runs the projectors inside this process (no Redis), in groups: whenever woken (NOTIFY on
 * filiere_events, `wake()`, and a periodic sweep), each group catches up with one transaction
 * per batch for all its projectors (`catchUpGroup`: checkpoints locked together, events read
 * and decoded once, every member's rows and checkpoint committed together), one run at a time
 * per group; wake-ups during a run coalesce into one more run.
 *
 * A projector that fails in its group leaves it: the group runs again at once without it, and
 * it runs alone (`catchUp`, which stops it exactly at the bad event and records the error on
 * its checkpoint row), retried with exponential backoff while the others go on; once a run
 * alone has caught up, it rejoins its group. A failure that is not a projector's (the database
 * away) retries the whole group with backoff.
 */
export function startInProcessProjections<DB extends ProjectionTables>(
  opts: InProcessOptions<DB>,
): InProcessProjections {
  const retryMs = opts.retryMs ?? 500;
  const backoff = (failures: number) => Math.min(60_000, retryMs * 2 ** (failures - 1));
  let closed = false;
  const members = new Map(
    opts.projectors.map((projector): [string, Member] => [
      projector.name,
      { projector, alone: false, running: undefined, dirty: false, failures: 0, retry: undefined },
    ]),
  );
  const listed = new Set((opts.groups ?? []).flat());
  const groups: Group[] = [
    ...(opts.groups ?? []).map((names) => names.flatMap((n) => members.get(n) ?? [])),
    [...members.values()].filter((m) => !listed.has(m.projector.name)),
  ]
    .filter((list) => list.length > 0)
    .map((list) => ({
      members: list,
      pacer: new BatchPacer(opts.gatherMs ?? 0),
      running: undefined,
      dirty: false,
      failures: 0,
      retry: undefined,
    }));
  const groupOf = new Map(groups.flatMap((g) => g.members.map((m) => [m, g] as const)));

  // Every checkpoint row exists before a group locks them together (one statement at start).
  let ensured: Promise<void> | undefined;
  const ensureRows = () =>
    (ensured ??= ensureCheckpoints(opts.db, [...members.keys()]).catch((error: unknown) => {
      ensured = undefined;
      throw error;
    }));

  const runAlone = (member: Member): Promise<void> => {
    if (closed) return Promise.resolve();
    member.dirty = true;
    if (member.running) return member.running;
    member.running = (async () => {
      while (member.dirty && !closed) {
        member.dirty = false;
        try {
          await catchUp(opts.db, member.projector, opts);
          member.failures = 0;
          // Caught up on its own: back in its group, which runs it from now on.
          member.alone = false;
          void runGroup(groupOf.get(member)!);
          return;
        } catch (error) {
          member.failures += 1;
          const delay = backoff(member.failures);
          opts.logger.error(
            { err: error, projector: member.projector.name, retryInMs: delay },
            'projector failed; retrying',
          );
          if (!closed && !member.retry) {
            member.retry = setTimeout(() => {
              member.retry = undefined;
              void runAlone(member);
            }, delay);
            member.retry.unref();
          }
          return;
        }
      }
    })().finally(() => {
      member.running = undefined;
      if (member.dirty && member.alone && !closed && !member.retry) void runAlone(member);
    });
    return member.running;
  };

  const runGroup = (group: Group): Promise<void> => {
    if (closed) return Promise.resolve();
    group.dirty = true;
    if (group.running) return group.running;
    group.running = (async () => {
      while (group.dirty && !closed) {
        // The wake-ups of the wait are this run's: cleared after it, not before.
        await group.pacer.wait();
        if (closed) break;
        group.dirty = false;
        const present = group.members.filter((m) => !m.alone);
        if (!present.length) break;
        try {
          await ensureRows();
          await catchUpGroup(
            opts.db,
            present.map((m) => m.projector),
            opts,
          );
          group.failures = 0;
        } catch (error) {
          const failed =
            error instanceof ProjectionFailure
              ? present.find((m) => m.projector.name === error.projector)
              : undefined;
          if (failed) {
            // Nothing of the batch was committed: the group goes on without it at once, and it
            // runs alone, where its error is pinpointed, recorded and retried with backoff.
            failed.alone = true;
            group.dirty = true;
            void runAlone(failed);
            continue;
          }
          group.failures += 1;
          const delay = backoff(group.failures);
          opts.logger.error(
            {
              err: error,
              projectors: present.map((m) => m.projector.name),
              retryInMs: delay,
            },
            'projectors failed; retrying',
          );
          if (!closed) {
            group.retry = setTimeout(() => {
              group.retry = undefined;
              void runGroup(group);
            }, delay);
            group.retry.unref();
          }
          break;
        }
      }
    })().finally(() => {
      group.running = undefined;
      if (group.dirty && !closed && !group.retry) void runGroup(group);
    });
    return group.running;
  };

  const wake = () => {
    if (closed) return;
    for (const group of groups) if (!group.retry) void runGroup(group);
    for (const member of members.values()) if (member.alone && !member.retry) void runAlone(member);
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
      await Promise.all([
        ...groups.map(async (group) => {
          group.pacer.hurry();
          if (group.running) await group.running;
          group.pacer.hurry();
          await runGroup(group);
        }),
        ...[...members.values()].map(async (member) => {
          if (!member.alone) return;
          if (member.running) await member.running;
          await runAlone(member);
        }),
      ]);
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const group of groups) {
        if (group.retry) clearTimeout(group.retry);
        group.pacer.hurry();
      }
      for (const member of members.values()) if (member.retry) clearTimeout(member.retry);
      await listener?.close();
      await Promise.all([
        ...groups.map((g) => g.running),
        ...[...members.values()].map((m) => m.running),
      ]);
    },
  };
}
