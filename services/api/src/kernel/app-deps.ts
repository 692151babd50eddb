import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { CommandPipeline, EventStore } from '@filiere/event-store';
import type { Config, Foreground, Logger } from '@filiere/platform';
import type { PushSource } from '@filiere/projections';
import type { ProductTables } from './tables.js';

/** A dependency's readiness, as `/api/ready` reports it (http/health.ts). */
export type ReadinessCheck = () => Promise<{ ok: boolean; details?: unknown }>;

/**
 * What the app is built with (buildApp), and the decorations every context's routes
 * rely on. Declared here, below the contexts, so that a context's http/ folder type-checks
 * wherever its module is loaded (the worker's program included) without importing the app.
 */
export interface AppDeps {
  config: Config;
  /** The product's database: each context narrows it to its own tables (kernel/tables.ts). */
  db: Kysely<ProductTables>;
  logger: Logger;
  /** Present when REDIS_URL is configured. */
  redis?: Redis;
  /** Directory of the built web app to serve at `/`, if any. */
  webDir?: string;
  /** The event store to append through (shared with the projection dispatch); a new one when absent. */
  eventStore?: EventStore;
  /** Extra readiness checks (projection lag, …). */
  readiness?: Record<string, ReadinessCheck>;
  /** Websocket hub: push source and heartbeat (realtime/). */
  realtime?: RealtimeOptions;
  /**
   * The API's background thread (no REDIS_URL: startProjectionDispatch started it): the
   * projectors and the jobs `withoutRedis` run there, so no context starts them on this thread;
   * `wakeJob(name)` wakes one of those jobs (work was just scheduled for it).
   */
  backgroundThread?: BackgroundThreadHandle;
  /**
   * The clock the command services date their decisions by (contracts created, delivered and
   * run, invitations, requests, deliveries). The real time unless given: the demo loader gives
   * its own to date the demo's steps in the past (kernel/demo.ts).
   */
  clock?: () => Date;
}

/** What the API's thread may ask of its background thread. */
export interface BackgroundThreadHandle {
  wakeJob(name: string): void;
  /**
   * Marks this thread's foreground work (a contract run's loop marks its runs): the thread's
   * payouts wait while it lasts (InProcessLoop's `marks` and `yieldTo`).
   */
  foreground?: Foreground;
}

export interface RealtimeOptions {
  /** Where pushes come from; by default Redis (REDIS_URL) or LISTEN filiere_push (DATABASE_URL). */
  pushes?: PushSource;
  /** Heartbeat period (default 30 s): a socket that misses one pong is dropped. */
  pingIntervalMs?: number;
  /** How long a socket may stay unauthenticated (default 10 s). */
  authTimeoutMs?: number;
  /**
   * Period of the recheck of every connected user's access (default 60 s): catches a change
   * whose notice was lost (Redis or LISTEN down) or made outside the API.
   */
  accessRecheckMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** The process's event store: appends, reads, same-process append listeners. */
    eventStore: EventStore;
    /** The command pipeline (group commit) every context's commands go through. */
    commands: CommandPipeline;
    /**
     * Tells every API process's websocket hub (realtime/) that these users' access changed
     * (tokens revoked, deactivated, deleted, role changed): each closes their sockets that
     * lost access.
     */
    accessChanged(userIds: string[]): Promise<void>;
  }
}
