import { InProcessLoop, type Foreground, type Logger } from '@filiere/platform';
import type { WalletJobRunner } from './job-runner.js';

/**
 * The wallet's jobs (payouts, supply checks) on platform's in-process loop, in the API without
 * REDIS_URL and in the worker (woken by BullMQ): payouts recovered from the ledger's state at
 * start and every `recoverEveryMs` (the loop's sweep), due jobs run when one is scheduled and
 * every `pollMs` (how delayed retries come due).
 */
export class InProcessJobLoop extends InProcessLoop {
  constructor(
    runner: WalletJobRunner,
    logger: Logger,
    options: { pollMs?: number; recoverEveryMs?: number; yieldTo?: Foreground } = {},
  ) {
    super(runner, logger, {
      name: 'wallet jobs',
      pollMs: options.pollMs ?? 1000,
      sweepMs: options.recoverEveryMs ?? 60_000,
      ...(options.yieldTo ? { yieldTo: options.yieldTo } : {}),
    });
  }
}
