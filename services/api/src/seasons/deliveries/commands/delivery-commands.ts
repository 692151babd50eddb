import type { CommandPipeline, StreamState } from '@filiere/event-store';
import { BusinessRuleError, NotFoundError } from '@filiere/platform';
import type { DebtState } from '../../../contracts/index.js';
import { initialWalletState, walletStreamId, type WalletState } from '../../../wallet/index.js';
import { fingerprintOf, scopedKey } from '../../commands/run-command.js';
import type { SeasonActor } from '../../domain/index.js';
import {
  assignmentsOfLink,
  runWithFacts,
  StaleFactsError,
  type AssignmentState,
  type InputsDb,
} from '../../inputs/index.js';

import { requestStreamId, type RequestState } from '../../requests/index.js';
import {
  debtStreamId,
  deliverInput,
  deliveryDebtId,
  DELIVERY_MESSAGES,
  payingAssignment,
  type DeliveryAnswer,
} from '../domain/index.js';

export interface DeliveryCommandDeps {
  db: InputsDb;
  pipeline: CommandPipeline;
  now?: () => Date;
}

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
      .selectFrom('users')
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.wallet_id ? String(row.wallet_id) : null;
  }

  /** A stream's state and version, as the pipeline knows them (nothing written). */
  private async snapshot<S>(streamId: string): Promise<{ state: S; version: number }> {
    const { result } = await this.deps.pipeline.handle<StreamState<S>>({
      streams: [streamId],
      metadata: { userId: 'system' },
      decide: (states) => ({ writes: [], result: states[streamId] as StreamState<S> }),
    });
    return { state: result.state, version: result.version };
  }

  /** POST input-provider/make-delivery/{requestId}. */
  async deliver(actor: SeasonActor, requestId: number, key?: string): Promise<DeliveryAnswer> {
    // The request as filed (from the log: the read model may lag behind an acceptance).
    const filed = await this.deps.db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', requestStreamId(requestId))
      .where('version', '=', 1)
      .executeTakeFirst();
    if (!filed) throw new NotFoundError(DELIVERY_MESSAGES.requestNotFound);
    const row = filed.data as {
      type: string;
      linkId: number | null;
      fertilizerId: number | null;
      industrialUserId: string | null;
    };
    if (row.type !== 'INPUT' || !row.linkId || !row.industrialUserId) {
      throw new BusinessRuleError(DELIVERY_MESSAGES.notInput);
    }
    const industrialWallet = await this.walletOf(row.industrialUserId);
    const walletStream = walletStreamId(industrialWallet ?? 'none');
    const requestStream = requestStreamId(requestId);
    const debtStream = debtStreamId(deliveryDebtId(requestId));
    const linkId = row.linkId;
    const line = { linkId, fertilizerId: row.fertilizerId };
    const now = this.now();
    return runWithFacts(this.deps.pipeline, {
      idempotencyKey: scopedKey(actor.userId, 'deliveries.deliver', key),
      fingerprint: fingerprintOf('deliveries.deliver', { requestId }),
      userId: actor.userId,
      // The industrial's wallet first, then the link's assignments: each assignment and ban
      // appends to that wallet, so a decide seeing a newer wallet reads them again.
      facts: async () => {
        const wallet = await this.snapshot<WalletState>(walletStream);
        const assignments = await assignmentsOfLink(this.deps.db, linkId);
        const assignment: AssignmentState | null = payingAssignment(
          line,
          actor,
          assignments,
          wallet.state,
        );
        const providerWalletId = assignment ? await this.walletOf(assignment.providerUserId) : null;
        return { walletVersion: wallet.version, assignment, providerWalletId };
      },
      streams: (facts) => [
        requestStream,
        walletStream,
        ...(facts.providerWalletId ? [walletStreamId(facts.providerWalletId)] : []),
        debtStream,
      ],
      decide: (states, facts) => {
        if (states[walletStream]!.version > facts.walletVersion) throw new StaleFactsError();
        return deliverInput(
          {
            request: states[requestStream]!.state as RequestState,
            wallet: states[walletStream]!.state as WalletState,
            providerWallet: facts.providerWalletId
              ? (states[walletStreamId(facts.providerWalletId)]!.state as WalletState)
              : initialWalletState(),
            debt: states[debtStream]!.state as DebtState,
          },
          {
            actor,
            assignment: facts.assignment,
            providerWalletId: facts.providerWalletId ?? '',
            now,
          },
        );
      },
    });
  }
}
