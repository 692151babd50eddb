import type { ContextModule } from '../kernel/module.js';
import { smsDispatchJob } from './dispatch/job.js';
import { growerMessagesJob } from './growers/job.js';
import { monthlySummaryJob } from './growers/monthly-job.js';
import { MESSAGING_PUSHES } from './pushes.js';
import * as growerMessages from './migrations/20261207_1000_grower_messages.js';
import * as growerSmsOptOuts from './migrations/20261207_1010_grower_sms_opt_outs.js';

/**
 * Messaging: what the product tells growers by SMS and how it reaches them (docs/messaging.md).
 * It sends identity's SMS outbox through the configured gateway (its dispatcher job), takes
 * the gateway's delivery reports, and shows the admin every message and what they cost.
 */
export const messagingModule: ContextModule = {
  name: 'messaging',
  events: [],
  migrations: {
    '20261207_1000_grower_messages': growerMessages,
    '20261207_1010_grower_sms_opt_outs': growerSmsOptOuts,
  },
  projectors: [],
  jobs: [smsDispatchJob, growerMessagesJob, monthlySummaryJob],
  pushes: MESSAGING_PUSHES,
  http: async () => (await import('./http/index.js')).registerMessaging,
};

export { SmsDispatcher, type DispatcherOptions } from './dispatch/dispatcher.js';
export { backoffDelay } from './dispatch/backoff.js';
export { GrowerMessages } from './growers/follower.js';
export { MonthlySummaries } from './growers/monthly.js';
export type { MessagingTables } from './tables.js';
export {
  OPTIONAL_SMS_KINDS,
  SmsOptOuts,
  isOptional,
  type OptOutSource,
} from './optout/opt-outs.js';
export { createSmsGateway, twilioStatusCallback } from './gateway/index.js';
export type { SmsGateway } from './gateway/index.js';
export { twilioGateway, twilioSignature } from './gateway/twilio.js';
export { MESSAGING_PUSHES, type MessagingPushType } from './pushes.js';
