import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EventCatalogue, EventDefinition, StreamType } from '@filiere/event-store';
import type { Config, Foreground, Logger, MigrationSet } from '@filiere/platform';
import type { Projector, PushPublisher } from '@filiere/projections';
import type { AppDeps } from './app-deps.js';
import type { ProductTables } from './tables.js';

export type { ProductTables } from './tables.js';

/**
 * A bounded context, as the rest of the product sees it: one folder under
 * services/api/src/<context>/ exports one of these from its index.ts, and the list in
 * services/api/src/modules.ts drives the API, the worker, migrations, the ledger commands,
 * the demo loader and the security route table. Nothing in it loads Fastify: routes are
 * behind `http`, imported only by the API.
 */
export interface ContextModule {
  /** Unique; names the context in logs and errors. */
  name: string;
  /** Its event types (with versions and upcasters): the product catalogue is built from them. */
  events: readonly EventDefinition<string, any>[];
  /** Stream types registered on the API's command pipeline. */
  streams?: readonly StreamType[];
  /** Its tables, write side and read model; names start with a date and a block number. */
  migrations: MigrationSet;
  /** Its projectors (read model), run by the API in-process or by the worker. */
  projectors: readonly Projector[];
  /** Its background work on the worker side (REDIS_URL); the API side starts with `http`. */
  jobs?: readonly JobModule[];
  /** Run-once demo data, in order (never in production). */
  demo?: readonly DemoStep[];
  /** The push types it publishes (the web's typed table mirrors them). */
  pushes?: readonly string[];
  /** Its HTTP registration, imported lazily so that the worker never loads routes or Fastify. */
  http?: () => Promise<HttpRegistration>;
}

/**
 * Registers a context's routes (and its API-side background loops) on the app, whose
 * `deps` (AppDeps), `commands` and `eventStore` it may use.
 */
export type HttpRegistration = (app: FastifyInstance & { deps: AppDeps }) => Promise<void>;

/** What a context's worker-side jobs get from the worker process. */
export interface JobContext {
  config: Config;
  db: Kysely<ProductTables>;
  /** The database `db` reaches (a job that runs in a thread of its own opens its own pool). */
  databaseUrl: string;
  logger: Logger;
  redisUrl: string;
  /** The product's catalogue (a job that appends events builds its event store with it). */
  catalogue: EventCatalogue;
  /** Publishes pushes to the websocket hub (Redis in the worker, NOTIFY in the API's thread). */
  publish: PushPublisher;
}

/**
 * What a job `withoutRedis` gets: the worker's context (with its Redis, for BullMQ wake-ups), or
 * the API's background thread's (without: it is woken by `wake`, from the API's thread).
 */
export type BackgroundJobContext = Omit<JobContext, 'redisUrl'> & {
  redisUrl?: string;
  /** In the API's background thread: the API thread's foreground work (its contract runs). */
  foreground?: Foreground;
};

/** A started job: stopped by `close`; a job `withoutRedis` may be woken (work just scheduled). */
export interface StartedJob {
  close(): Promise<void>;
  wake?(): void;
}

/**
 * Background work a context runs in the worker process (`npm run worker`, BullMQ wake-ups).
 * One `withoutRedis` (BullMQ only wakes it when there is a Redis; its own command pipeline, if
 * it appends) runs, without REDIS_URL, in the API's background thread rather than on the API's
 * own thread, and the context's `http` registration does not start it there but wakes it
 * through `AppDeps.backgroundThread`.
 */
export type JobModule =
  | {
      name: string;
      withoutRedis?: false;
      start(ctx: JobContext): Promise<StartedJob>;
    }
  | {
      name: string;
      withoutRedis: true;
      start(ctx: BackgroundJobContext): Promise<StartedJob>;
    };

export interface DemoContext {
  db: Kysely<ProductTables>;
  logger: Logger;
  /**
   * An app on the demo database for steps that go through the real commands
   * (`app.inject`); the caller closes it. Given by the loader, so that a context never
   * imports the app.
   */
  openApp(config: Config): Promise<FastifyInstance>;
  /**
   * The demo's clock (kernel/demo.ts): a step moves it to the moment it plays, and what its
   * apps' command services decide and append then is dated at that moment.
   */
  clock: DemoClock;
}

/** The moments of the demo: never after now, never back within one stream. */
export interface DemoClock {
  /** The moment shown (it runs at real speed from the last `set`). */
  now(): Date;
  /** Moves to `at` (the events appended from now on are dated from there). */
  set(at: Date): Promise<void>;
  /** `daysAgo` days before Benin's today at `hour` (Benin time); today: before now. */
  beninMoment(daysAgo: number, hour?: number): Date;
}

/** A named, run-once piece of demo data (recorded in platform_meta). */
export interface DemoStep {
  name: string;
  /**
   * The step it runs right after, when it needs records a later context's demo makes (the
   * wallet pays the demo grower once the actors' demo has registered it). Without it, a step
   * runs in module order.
   */
  after?: string;
  run(ctx: DemoContext): Promise<void>;
}
