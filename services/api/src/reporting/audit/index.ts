import type { JobModule } from '../../kernel/module.js';
import type { ReportingArea } from '../area.js';
import * as auditIntegrity from './migrations/20261127_0300_audit_integrity.js';
import { AUDIT_NICE, startAuditThread } from './thread-host.js';
import { AUDIT_INTEGRITY_PUSH } from './verifier.js';

/**
 * The verification, started by the worker (with REDIS_URL) or by the API's background thread
 * (without it), on a thread of its own at the lowest priority (thread.ts): the same verifier
 * on platform's in-process loop, which needs no Redis. Several may run it: one holds the lock.
 */
const integrityJob: JobModule = {
  name: 'ledger-integrity',
  withoutRedis: true,
  start: async (ctx) =>
    startAuditThread({
      databaseUrl: ctx.databaseUrl,
      logger: ctx.logger,
      publish: ctx.publish,
      nice: ctx.config.BACKGROUND_NICE > 0 ? AUDIT_NICE : 0,
    }),
};

/**
 * Reporting's area: the auditor's view of the ledger (migration block 20261127_03NN).
 * `audit_integrity` records how far the hash chain has been verified, by a background job
 * that verifies new events and re-checks old ones a page at a time; `GET audit/integrity`
 * reads it; a broken chain is pushed (`audit.integrity`) to super admins and accountants.
 */
export const auditArea: ReportingArea = {
  name: 'audit',
  migrations: { '20261127_0300_audit_integrity': auditIntegrity },
  jobs: [integrityJob],
  pushes: [AUDIT_INTEGRITY_PUSH],
  http: async () => (await import('./http.js')).registerAudit,
};

export type { AuditTables } from './tables.js';
