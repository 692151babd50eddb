import { EventStore } from '@filiere/event-store';
import { InProcessLoop } from '@filiere/platform';
import type { JobModule } from '../../kernel/module.js';
import { pushingRuns } from '../pushes.js';
import { GROWER_MESSAGES, GrowerMessages } from './follower.js';

/**
 * The grower messages' follower on platform's in-process loop (the API's background thread
 * without REDIS_URL, the worker with it), every 2 s. It runs with every gateway, the outbox
 * included: messages are written whether or not they can be sent yet.
 */
export const growerMessagesJob: JobModule = {
  name: GROWER_MESSAGES,
  withoutRedis: true,
  async start(ctx) {
    const follower = GrowerMessages.of(ctx.db, new EventStore(ctx.db, ctx.catalogue), ctx.logger);
    const loop = new InProcessLoop(pushingRuns(follower, ctx.db, ctx.publish), ctx.logger, {
      name: 'grower messages',
      pollMs: 2000,
    });
    loop.start();
    return { close: () => loop.stop(), wake: () => loop.wake() };
  },
};
