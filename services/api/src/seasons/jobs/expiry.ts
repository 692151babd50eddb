import { InProcessLoop, type Logger, type LoopRunner } from '@filiere/platform';
import type { SeasonCommands } from '../commands/season-commands.js';
import type { SeasonQueries } from '../queries.js';

/** How many due invitations one run looks at. */
const BATCH = 100;

/**
 * The scheduled expiry of season invitations: PENDING links past `expiresAt` (read from
 * `season_links`) are sent to the expiry command, whose decider writes InvitationExpired
 * (CANCELED) only while the invitation is still PENDING and due. Any number of processes
 * may sweep at once: the stream's version orders them and the losers write nothing.
 */
export class InvitationExpiryRunner implements LoopRunner {
  constructor(
    private readonly commands: SeasonCommands,
    private readonly queries: SeasonQueries,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Expires what is due; answers how many it expired (the loop runs again until 0). */
  async runDue(): Promise<number> {
    const due = await this.queries.dueInvitations(this.now(), BATCH);
    let expired = 0;
    for (const link of due) {
      const result = await this.commands.expire(link.seasonId, link.userId);
      if (result.expired) expired++;
    }
    return expired;
  }
}

/** The expiry on platform's in-process loop: every `pollMs` (default one minute). */
export function invitationExpiryLoop(
  runner: InvitationExpiryRunner,
  logger: Logger,
  pollMs = 60_000,
): InProcessLoop {
  return new InProcessLoop(runner, logger, { name: 'season invitation expiry', pollMs });
}
