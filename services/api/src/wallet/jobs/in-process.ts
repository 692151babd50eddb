import { InProcessLoop, type Logger } from '@filiere/platform';
import type { WalletJobRunner } from './job-runner.js';

/**
 * The wallet's jobs (payouts, supply checks) without REDIS_URL: recovered from the ledger's
 * state at start, run when one is scheduled and every `pollMs` (how delayed retries come due).
 */
export class InProcessJobLoop extends InProcessLoop {
  constructor(runner: WalletJobRunner, logger: Logger, pollMs = 1000) {
    super(runner, logger, { name: 'wallet jobs', pollMs });
  }
}
