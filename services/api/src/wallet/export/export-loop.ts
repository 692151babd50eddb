import {
  InProcessLoop,
  type InProcessLoopOptions,
  type Logger,
  type LoopRunner,
} from '@filiere/platform';

export type ExportLoopOptions = Pick<InProcessLoopOptions, 'pollMs' | 'sweepMs'>;

/**
 * The export runner (`ExportRunner`) driven by platform's in-process loop: jobs run one
 * after the other when woken (a new job, a BullMQ wake-up) and every `pollMs` (2 s: a lost wake-up, a dead
 * runner's lease), expired jobs and files swept every `sweepMs` (10 minutes) and at start.
 * The API uses it without REDIS_URL; the worker uses it behind its BullMQ queue.
 */
export function exportLoop(
  runner: LoopRunner,
  logger: Logger,
  options: ExportLoopOptions = {},
): InProcessLoop {
  return new InProcessLoop(runner, logger, {
    name: 'export jobs',
    pollMs: 2_000,
    sweepMs: 10 * 60_000,
    ...options,
  });
}
