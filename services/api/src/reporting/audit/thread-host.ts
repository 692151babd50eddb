import { startSupervisedThread, threadEntry, type Logger } from '@filiere/platform';
import type { PushPublisher } from '@filiere/projections';
import type { StartedJob } from '../../kernel/module.js';
import type { AuditThreadData, FromAuditThread, ToAuditThread } from './thread.js';

/** The audit thread's nice value: below every other background work (BACKGROUND_NICE ≤ 19). */
export const AUDIT_NICE = 19;

/**
 * Starts the integrity verification on its own thread (thread.ts), kept running
 * (started again a second after it stops: its progress is in `audit_integrity`). `nice` 0
 * (BACKGROUND_NICE=0: no priorities on this machine) leaves its priority alone.
 */
export function startAuditThread(options: {
  databaseUrl: string;
  logger: Logger;
  publish: PushPublisher;
  nice: number;
}): StartedJob {
  const { logger } = options;
  const data: AuditThreadData = {
    databaseUrl: options.databaseUrl,
    logLevel: logger.level,
    nice: options.nice,
  };
  const thread = startSupervisedThread<ToAuditThread, FromAuditThread>({
    entry: threadEntry(import.meta.url, './thread'),
    workerData: data,
    logger,
    name: 'audit',
    onMessage: (message) => {
      if (message.type === 'ready') {
        logger.debug({ priority: message.priority }, 'audit thread ready');
      } else if (message.type === 'push') {
        options.publish(message.messages).catch((err: unknown) => {
          logger.warn({ err }, 'audit.integrity push not published');
        });
      }
    },
  });
  return { close: () => thread.close() };
}
