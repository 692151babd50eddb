import { InProcessLoop } from '@filiere/platform';
import { SmsOutboxStore } from '../../identity/index.js';
import type { JobModule } from '../../kernel/module.js';
import { createSmsGateway } from '../gateway/index.js';
import { pushingRuns } from '../pushes.js';
import { SmsDispatcher } from './dispatcher.js';

export const SMS_DISPATCH_JOB = 'sms-dispatch';

/**
 * The dispatcher on platform's in-process loop: in the API's background thread without
 * REDIS_URL, in the worker with it (several may run: their claims skip each other's rows).
 * It polls every 2 s (how queued messages and delayed retries come due). With
 * `SMS_GATEWAY=outbox` it does not run: messages stay queued in the outbox, as written. A run
 * that moved messages pushes `sms.changed` to the SMS screen's readers.
 */
export const smsDispatchJob: JobModule = {
  name: SMS_DISPATCH_JOB,
  withoutRedis: true,
  async start(ctx) {
    const gateway = createSmsGateway(ctx.config);
    if (!gateway) return { close: async () => {} };
    const dispatcher = new SmsDispatcher(SmsOutboxStore.of(ctx.db), gateway, ctx.logger);
    const loop = new InProcessLoop(pushingRuns(dispatcher, ctx.db, ctx.publish), ctx.logger, {
      name: 'sms dispatch',
      pollMs: 2000,
    });
    loop.start();
    return { close: () => loop.stop(), wake: () => loop.wake() };
  },
};
