import type { ContextModule } from '../kernel/module.js';
import { smsDispatchJob } from './dispatch/job.js';

/**
 * Messaging: what the product tells growers by SMS and how it reaches them (docs/messaging.md).
 * It sends identity's SMS outbox through the configured gateway (its dispatcher job), takes
 * the gateway's delivery reports, and shows the admin every message and what they cost.
 */
export const messagingModule: ContextModule = {
  name: 'messaging',
  events: [],
  migrations: {},
  projectors: [],
  jobs: [smsDispatchJob],
  http: async () => (await import('./http/index.js')).registerMessaging,
};

export { SmsDispatcher, type DispatcherOptions } from './dispatch/dispatcher.js';
export { backoffDelay } from './dispatch/backoff.js';
export { createSmsGateway, twilioStatusCallback } from './gateway/index.js';
export type { SmsGateway } from './gateway/index.js';
export { twilioGateway, twilioSignature } from './gateway/twilio.js';
