import { createDb, createLogger } from '@filiere/platform';
import { pgPushPublisher } from '@filiere/projections';
import { ExportRunner } from '../export-runner.js';
import type { WalletExportsTables } from '../export-store.js';

/**
 * A runner process for the restart test: claims one export job from DATABASE_URL and
 * writes it slowly (PAGE_DELAY_MS after each page, lease LEASE_MS), printing `claimed`;
 * the test kills it with SIGKILL mid-export.
 */
const db = createDb<WalletExportsTables>(process.env.DATABASE_URL!, {
  max: 2,
  applicationName: 'export-runner-test',
});
const runner = new ExportRunner(db, pgPushPublisher(db), {
  dataDir: process.env.DATA_DIR!,
  logger: createLogger('silent', false),
  leaseMs: Number(process.env.LEASE_MS ?? 1000),
  progressMs: 0,
  pageDelayMs: Number(process.env.PAGE_DELAY_MS ?? 200),
});
process.stdout.write('ready\n');
await runner.runDue();
await db.destroy();
