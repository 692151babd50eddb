import { narrowDb } from '@filiere/platform';
import type { JobModule } from '../../kernel/module.js';
import type { ReportingArea } from '../area.js';
import * as auditIntegrity from './migrations/20261127_0300_audit_integrity.js';
import { integrityLoop } from './loop.js';
import { AUDIT_INTEGRITY_PUSH, IntegrityVerifier, type VerifierTables } from './verifier.js';

/**
 * The verification in the worker (with REDIS_URL), or in the API's background thread (without
 * it): the same verifier on platform's in-process loop, which needs no Redis. Several may run
 * it: one holds the lock.
 */
const integrityJob: JobModule = {
  name: 'ledger-integrity',
  withoutRedis: true,
  async start(ctx) {
    const verifier = new IntegrityVerifier(
      narrowDb<VerifierTables>()(ctx.db),
      ctx.publish,
      ctx.logger,
    );
    const loop = integrityLoop(verifier, ctx.logger);
    loop.start();
    return { close: () => loop.stop() };
  },
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
