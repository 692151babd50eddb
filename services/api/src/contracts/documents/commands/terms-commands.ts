import { handleCommand, streamRef, type CommandPipeline } from '@filiere/event-store';
import type { SignedInUser } from '../../../kernel/actor.js';
import {
  DELIVERY_TERMS_STREAM,
  openTerms,
  publishTerms,
  termsStream,
  type Clause,
} from '../domain/terms.js';

const termsRef = () => streamRef(termsStream, DELIVERY_TERMS_STREAM);

/**
 * Publishing the delivery contract's terms: one pipeline command on `contractterms-delivery`.
 * The first publication opens the stream with the built-in text as version 1 (domain/terms.ts);
 * two publications at once are ordered by the stream's version, each on the one before.
 */
export class ContractTermsCommands {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async publish(user: SignedInUser, clauses: readonly Clause[]): Promise<{ version: number }> {
    const now = this.clock().toISOString();
    return handleCommand(this.pipeline, {
      streams: { terms: termsRef() },
      open: { terms: (state) => openTerms(state, now) },
      metadata: { userId: user.id },
      decide: ({ terms }) => {
        const { event, version } = publishTerms(
          terms,
          { clauses },
          { userId: user.id, role: user.role_code },
          now,
        );
        return {
          writes: [{ streamId: DELIVERY_TERMS_STREAM, events: [event] }],
          result: { version },
        };
      },
    });
  }
}
