import { handleCommand, streamRef, type CommandPipeline } from '@filiere/event-store';
import { identityUsers } from '../../../identity/index.js';
import { BusinessRuleError, isAppError, NotFoundError } from '@filiere/platform';
import { debtStream } from '../../../contracts/index.js';
import type { GuessLimit } from '@filiere/platform';
import { initialWalletState, walletStream, walletStreamId } from '../../../wallet/index.js';
import { scopedKey } from '../../commands/keys.js';
import type { SeasonActor } from '../../domain/index.js';
import {
  assignmentsOfLink,
  runWithFacts,
  StaleFactsError,
  type AssignmentState,
  type InputsDb,
} from '../../inputs/index.js';

import { requestStream, requestStreamId } from '../../requests/index.js';
import {
  codeGuessCounters,
  debtStreamId,
  deliverInput,
  deliveryDebtId,
  DELIVERY_MESSAGES,
  normalizeDeliveryCode,
  payingAssignment,
  type DeliveryAnswer,
} from '../domain/index.js';

export interface DeliveryCommandDeps {
  db: InputsDb;
  pipeline: CommandPipeline;
  /** Counts wrong codes per caller and per grower (429 past `CODE_GUESS_LIMITS`). */
  guesses: GuessLimit;
  now?: () => Date;
}

/** Whether a refusal was a wrong code (the only refusal a guess is kept for). */
export const isIncorrectCode = (error: unknown): boolean =>
  isAppError(error) && error.data.reason === 'INCORRECT_CODE';

/**
 * Deliveries by grower code: one pipeline command over the request's stream, the
 * industrial's wallet (the assignment's hold), the provider's wallet and the grower's debt.
 * Concurrent confirmations of one request meet on the request's stream: one is appended,
 * the others are decided again on the DONE request and refused (409), writing nothing.
 */
export class DeliveryCommands {
  constructor(private readonly deps: DeliveryCommandDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async walletOf(userId: string): Promise<string | null> {
    const row = await this.deps.db
      .selectFrom(identityUsers().as('users'))
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.wallet_id ? String(row.wallet_id) : null;
  }

  /**
   * POST input-provider/make-delivery/{requestId} {code}. The code is compared first with the
   * one the acceptance gave (it never changes): a right code is refused only while the
   * caller or the grower is at its guess limit; a wrong one is counted on both (then given
   * back if the decision refuses for another reason: reach, state), and the decision refuses
   * it writing nothing.
   */
  async deliver(
    actor: SeasonActor,
    requestId: number,
    code: string,
    key?: string,
  ): Promise<DeliveryAnswer> {
    const filed = await this.deps.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream_id', '=', requestStreamId(requestId))
      .where('type', 'in', ['GrowerRequestFiled', 'GrowerRequestAccepted'])
      .orderBy('version')
      .execute();
    const first = filed[0];
    if (!first || first.type !== 'GrowerRequestFiled') {
      throw new NotFoundError(DELIVERY_MESSAGES.requestNotFound);
    }
    const row = first.data as {
      type: string;
      linkId: number | null;
      fertilizerId: number | null;
      industrialUserId: string | null;
      growerId: string;
    };
    if (row.type !== 'INPUT' || !row.linkId || !row.industrialUserId) {
      throw new BusinessRuleError(DELIVERY_MESSAGES.notInput);
    }
    const accepted = filed.find((e) => e.type === 'GrowerRequestAccepted')?.data as
      { code: string | null } | undefined;
    const counters = codeGuessCounters(actor.userId, row.growerId);
    if (accepted?.code && normalizeDeliveryCode(code) === accepted.code) {
      await this.deps.guesses.check(counters);
      return this.decide(actor, requestId, row, code, key);
    }
    const guess = await this.deps.guesses.take(counters);
    try {
      return await this.decide(actor, requestId, row, code, key);
    } catch (error) {
      if (!isIncorrectCode(error)) await guess.refund();
      throw error;
    }
  }

  private async decide(
    actor: SeasonActor,
    requestId: number,
    row: { linkId: number | null; fertilizerId: number | null; industrialUserId: string | null },
    code: string,
    key: string | undefined,
  ): Promise<DeliveryAnswer> {
    const industrialWallet = await this.walletOf(row.industrialUserId!);
    const wallet = streamRef(walletStream, walletStreamId(industrialWallet ?? 'none'));
    const linkId = row.linkId!;
    const line = { linkId, fertilizerId: row.fertilizerId };
    const now = this.now();
    return runWithFacts(this.deps.pipeline, {
      idempotency: scopedKey(actor.userId, 'deliveries.deliver', key, {
        requestId,
        code: normalizeDeliveryCode(code),
      }),
      metadata: { userId: actor.userId },
      // The industrial's wallet first, then the link's assignments: each assignment and ban
      // appends to that wallet, so a decide seeing a newer wallet reads them again.
      facts: async () => {
        const read = await handleCommand(this.deps.pipeline, {
          streams: { wallet },
          metadata: { userId: 'system' },
          decide: (states, versions) => ({
            writes: [],
            result: { state: states.wallet, version: versions.wallet },
          }),
        });
        const assignments = await assignmentsOfLink(this.deps.db, linkId);
        const assignment: AssignmentState | null = payingAssignment(
          line,
          actor,
          assignments,
          read.state,
        );
        const providerWalletId = assignment ? await this.walletOf(assignment.providerUserId) : null;
        return { walletVersion: read.version, assignment, providerWalletId };
      },
      streams: (facts) => ({
        request: streamRef(requestStream, requestStreamId(requestId)),
        wallet,
        ...(facts.providerWalletId
          ? { providerWallet: streamRef(walletStream, walletStreamId(facts.providerWalletId)) }
          : {}),
        debt: streamRef(debtStream, debtStreamId(deliveryDebtId(requestId))),
      }),
      decide: ({ providerWallet, ...states }, versions, facts) => {
        if (versions.wallet > facts.walletVersion) throw new StaleFactsError();
        return deliverInput(
          { ...states, providerWallet: providerWallet ?? initialWalletState() },
          {
            actor,
            code,
            assignment: facts.assignment,
            providerWalletId: facts.providerWalletId ?? '',
            now,
          },
        );
      },
    });
  }
}
