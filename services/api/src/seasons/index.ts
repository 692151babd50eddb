import { CommandPipeline, EventStore } from '@filiere/event-store';
import { mergeMigrations } from '@filiere/platform';
import type { HttpRegistration } from '../kernel/module.js';
import type { SeasonsArea } from './area.js';
import { deliveriesArea } from './deliveries/index.js';
import { inputsArea } from './inputs/index.js';
import { requestsArea } from './requests/index.js';
import type { ContextModule, JobModule } from '../kernel/module.js';
import { seasonEvents, seasonStream } from './catalogue.js';
import { SeasonCommands } from './commands/season-commands.js';
import { seasonsDemoStep } from './demo/seasons.js';
import { InvitationExpiryRunner, invitationExpiryLoop } from './jobs/expiry.js';
import { seasonWriteMigrations } from './migrations/index.js';
import { SEASON_PUSHES } from './pushes.js';
import { SeasonQueries } from './queries.js';
import { seasonProjectors, seasonReadMigrations } from './read-model/index.js';
import { seasonsDb } from './tables.js';

/**
 * The invitation expiry in the worker (with REDIS_URL; without it the API runs it): the same
 * runner on platform's in-process loop, every minute. Several workers may sweep at once.
 */
const seasonInvitationExpiry: JobModule = {
  name: 'season-invitation-expiry',
  async start(ctx) {
    const pipeline = new CommandPipeline(new EventStore(ctx.db, ctx.catalogue), {
      batchMax: ctx.config.COMMAND_BATCH_MAX,
      batchWaitMs: ctx.config.COMMAND_BATCH_WAIT_MS,
    });
    pipeline.registerStreamType(seasonStream);
    const db = seasonsDb(ctx.db);
    const commands = new SeasonCommands({
      db,
      pipeline,
      invitationDays: ctx.config.SEASON_INVITATION_DAYS,
    });
    const loop = invitationExpiryLoop(
      new InvitationExpiryRunner(commands, new SeasonQueries(db)),
      ctx.logger,
    );
    loop.start();
    return {
      async close() {
        await loop.stop();
        await pipeline.close();
      },
    };
  },
};

/**
 * The areas beside the core, in the order their demo steps run (providers are assigned
 * before growers' requests are accepted, and requests before inputs are delivered).
 * Migration blocks: inputs 20261126_01NN, requests 20261126_02NN, deliveries 20261126_03NN.
 */
const areas: readonly SeasonsArea[] = [inputsArea, requestsArea, deliveriesArea];

const registerSeasonsAndAreas: HttpRegistration = async (app) => {
  await (await import('./http/index.js')).registerSeasons(app);
  for (const area of areas) {
    if (area.http) await (await area.http())(app);
  }
};

/**
 * Seasons (campaigns, "clusters" in the original's paths): the super admin's seasons with
 * their pricing and fertilizer lines, the industrials attached to them (invitations that
 * expire, acceptance), on streams `season-<id>`; read tables `seasons` and `season_links`.
 */
export const seasonsModule: ContextModule = {
  name: 'seasons',
  events: [...seasonEvents, ...areas.flatMap((a) => a.events ?? [])],
  streams: [seasonStream, ...areas.flatMap((a) => a.streams ?? [])],
  migrations: mergeMigrations(
    { ...seasonWriteMigrations, ...seasonReadMigrations },
    ...areas.map((a) => a.migrations),
  ),
  projectors: [...seasonProjectors, ...areas.flatMap((a) => a.projectors ?? [])],
  jobs: [seasonInvitationExpiry, ...areas.flatMap((a) => a.jobs ?? [])],
  demo: [seasonsDemoStep, ...areas.flatMap((a) => a.demo ?? [])],
  pushes: [...SEASON_PUSHES, ...areas.flatMap((a) => a.pushes ?? [])],
  http: async () => registerSeasonsAndAreas,
};

// The public face.
export type { SeasonsTables } from './tables.js';
export { requestStreamId, type RequestEvent } from './requests/index.js';
export { SEASON_PUSHES, type SeasonPushType } from './pushes.js';
export { computeAmounts, type LinkAmounts, type SeasonPricing } from './domain/amounts.js';
export { seasonIdOn } from './season-on.js';
