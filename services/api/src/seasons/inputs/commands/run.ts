import {
  handleCommand,
  type CommandPipeline,
  type EventMetadata,
  type Idempotency,
  type StatesOf,
  type StreamRefs,
  type VersionsOf,
} from '@filiere/event-store';
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
 * Runs an area's command through handleCommand (idempotency key with fingerprint, retries
 * on a concurrent append), reading its facts before each attempt: a decide that finds its
 * facts older than the streams it loaded throws `StaleFactsError`, and the facts are read
 * again. Used where a fact is not a stream of the command (the other assignments of a link,
 * guarded by the industrial's wallet stream that each of them appends to).
 */
export async function runWithFacts<F, S extends StreamRefs, R>(
  pipeline: CommandPipeline,
  command: {
    idempotency: Idempotency | undefined;
    metadata: EventMetadata;
    facts: () => Promise<F>;
    /** The streams decided on; may depend on the facts (e.g. which provider's wallet). */
    streams: (facts: F) => S;
    decide(states: StatesOf<S>, versions: VersionsOf<S>, facts: F): AreaDecision<R>;
  },
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const facts = await command.facts();
    try {
      return await handleCommand(pipeline, {
        streams: command.streams(facts),
        idempotency: command.idempotency,
        metadata: command.metadata,
        decide: (states, versions) => {
          // The area's writes carry its own and the wallet's (and debts') events.
          const decided = command.decide(states, versions, facts);
          return {
            result: decided.result,
            writes: decided.writes.map((w) => ({ streamId: w.streamId, events: [...w.events] })),
          };
        },
      });
    } catch (error) {
      if (!(error instanceof StaleFactsError) || attempt >= 30) throw error;
    }
  }
}
