import type { CommandPipeline, StreamState } from '@filiere/event-store';
import { runSeasonCommand } from '../../commands/run-command.js';
import type { Decision } from '../../domain/index.js';
import type { AreaDecision } from '../domain/index.js';

/**
 * The facts a command read were older than a stream it decides on: read them again and
 * decide again (thrown by a decide, caught by `runWithFacts`).
 */
export class StaleFactsError extends Error {
  constructor() {
    super('stale facts');
    this.name = 'StaleFactsError';
  }
}

/**
 * Runs an area's command through the seasons' runner (idempotency key with fingerprint,
 * retries on a concurrent append), reading its facts before each attempt: a decide that
 * finds its facts older than the streams it loaded throws `StaleFactsError`, and the facts
 * are read again. Used where a fact is not a stream of the command (the other assignments
 * of a link, guarded by the industrial's wallet stream that each of them appends to).
 */
export async function runWithFacts<F, R>(
  pipeline: CommandPipeline,
  command: {
    idempotencyKey?: string | undefined;
    fingerprint: string;
    /** The streams decided on; may depend on the facts (e.g. which provider's wallet). */
    streams: string[] | ((facts: F) => string[]);
    userId: string;
    facts: () => Promise<F>;
    decide(states: Record<string, StreamState>, facts: F): AreaDecision<R>;
  },
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const facts = await command.facts();
    try {
      return await runSeasonCommand<R>(pipeline, {
        idempotencyKey: command.idempotencyKey,
        fingerprint: command.fingerprint,
        streams: typeof command.streams === 'function' ? command.streams(facts) : command.streams,
        userId: command.userId,
        // The area's writes carry its own and the wallet's (and debts') events.
        decide: (states) => command.decide(states, facts) as unknown as Decision<R>,
      });
    } catch (error) {
      if (!(error instanceof StaleFactsError) || attempt >= 30) throw error;
    }
  }
}
