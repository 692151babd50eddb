import { CommandPipeline, EventStore } from '@filiere/event-store';
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
 * Seasons (campaigns, "clusters" in the original's paths): the super admin's seasons with
 * their pricing and fertilizer lines, the industrials attached to them (invitations that
 * expire, acceptance), on streams `season-<id>`; read tables `seasons` and `season_links`.
 */
export const seasonsModule: ContextModule = {
  name: 'seasons',
  events: seasonEvents,
  streams: [seasonStream],
  migrations: { ...seasonWriteMigrations, ...seasonReadMigrations },
  projectors: seasonProjectors,
  jobs: [seasonInvitationExpiry],
  demo: [seasonsDemoStep],
  pushes: SEASON_PUSHES,
  http: async () => (await import('./http/index.js')).registerSeasons,
};

// The public face.
export type { SeasonsTables } from './tables.js';
export { SEASON_PUSHES, type SeasonPushType } from './pushes.js';
export { computeAmounts, type LinkAmounts, type SeasonPricing } from './domain/amounts.js';
