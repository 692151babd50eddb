import { handleCommand, requestFingerprint, streamRef, type ReadGuard } from '@filiere/event-store';
import { ValidationError } from '@filiere/platform';
import type { GuardedUser, SignedInUser } from '../../kernel/actor.js';
import {
  finance,
  opensWallet,
  requestWithdrawal,
  transfer,
  walletStream,
  walletStreamId,
  withdrawalStream,
  withdrawalStreamId,
  type Actor,
  type Decision,
  type AmountLimits,
  type MovementAnswer,
  type Recipient,
  type WalletState,
  type WithdrawalAnswer,
} from '../domain/index.js';
import { scopedKey, type WalletDeps } from './context.js';
import { newReference } from './references.js';
import {
  actorOf,
  findWalletUsers,
  recipientStatus,
  requireUser,
  walletUserOf,
  type WalletUser,
} from './users.js';

export interface TransferInput {
  source: string;
  destination: string;
  amount: number;
  reason: string;
}

export interface TransferResult extends MovementAnswer {
  operationType: 'TRANSFER';
  status: 'SUCCESS';
  reason: string;
  source: { walletId: string; userId: string };
  destination: { walletId: string; userId: string; firstname: string; lastname: string };
}

/**
 * `POST /wallet/make-transfer` by `me`, the signed-in user the auth guard took from the user
 * directory. `source` is my wallet id (or user id); `destination` is the recipient's wallet id
 * or user id, from the directory too (`fresh`: read now). That the source is mine is checked
 * once, by the decider. Both users' read guards go with the command: if either row changed
 * since it was read, nothing is appended (StaleReadError) and the route reads them again.
 */
export async function makeTransfer(
  deps: WalletDeps,
  me: GuardedUser,
  input: TransferInput,
  idempotencyKey?: string,
  fresh = false,
): Promise<TransferResult> {
  const actor = actorOf(me.user);
  // Deleted users too: paying one is refused with a clear 422 by the decider, not a 404.
  const read = await deps.users.find(input.destination, fresh);
  const recipient = requireUser(read && walletUserOf(read), 'Destinataire introuvable');
  const { answer, from } = await moveBetweenWallets(deps, actor, recipient, {
    guards: [me.guard, read!.guard],
    from: ownWalletOr(actor, input.source),
    command: 'transfer',
    referencePrefix: 'TRF',
    idempotencyKey,
    fingerprint: requestFingerprint('transfer', input),
    decide: (states, ids, facts) =>
      transfer(states, { ...ids, amount: input.amount, reason: input.reason }, actor, facts),
  });
  return {
    ...answer,
    operationType: 'TRANSFER',
    status: 'SUCCESS',
    reason: input.reason.trim(),
    source: { walletId: from, userId: actor.userId },
    destination: {
      walletId: recipient.walletId,
      userId: recipient.id,
      firstname: recipient.firstname,
      lastname: recipient.lastname,
    },
  };
}

export interface WithdrawalInput {
  paiementMethod: 'MOBILE_MONEY' | 'BANK';
  amount: number;
}

export interface WithdrawalResult extends WithdrawalAnswer {
  reference: string;
  operationType: 'DEBIT';
  paiementMethod: 'MOBILE_MONEY' | 'BANK';
  destination: string;
}

/**
 * `POST /wallet/make-debit/{id}` by `me`, the signed-in user the auth guard loaded: `id` is
 * my user id or wallet id (checked once, by the decider). Debits at once
 * (DEBIT, PENDING); the payout runs in the background once the debit has committed.
 * MOBILE_MONEY pays the profile's momo number (its phone when none is set); BANK its bank
 * account.
 */
export async function makeWithdrawal(
  deps: WalletDeps,
  me: SignedInUser,
  id: string,
  input: WithdrawalInput,
  idempotencyKey?: string,
): Promise<WithdrawalResult> {
  const actor = actorOf(me);
  const target = id.toLowerCase();
  const walletId = ownWalletOr(actor, target);
  const destination =
    input.paiementMethod === 'BANK' ? me.bank_account_number : (me.momo_account_number ?? me.phone);
  const withdrawalId = newReference('RET');
  const answer = await handleCommand(deps.pipeline, {
    streams: {
      wallet: streamRef(walletStream, walletStreamId(walletId)),
      withdrawal: streamRef(withdrawalStream, withdrawalStreamId(withdrawalId)),
    },
    open: { wallet: ownWallet(actor, walletId) },
    idempotency: scopedKey(
      actor.userId,
      'withdrawal',
      idempotencyKey,
      requestFingerprint('withdrawal', { id: target, ...input }),
    ),
    metadata: { userId: actor.userId },
    decide: (states) =>
      requestWithdrawal(
        states,
        { withdrawalId, walletId, method: input.paiementMethod, amount: input.amount },
        actor,
        { destination, limits: deps.limits },
      ),
  });
  // After the commit: the payout job (a repeat with the same key re-schedules the same
  // withdrawal, which the job table deduplicates).
  await deps.jobs.schedulePayout(answer.withdrawalId);
  return {
    withdrawalId: answer.withdrawalId,
    reference: answer.withdrawalId,
    status: answer.status,
    amount: answer.amount,
    operationType: 'DEBIT',
    paiementMethod: input.paiementMethod,
    destination: answer.destination,
  };
}

export interface FinancingResult extends MovementAnswer {
  operationType: 'STANDARD';
  status: 'SUCCESS';
  aggregator: { id: string; firstname: string; lastname: string; walletId: string };
}

/**
 * `POST /financement {aggregatorId, amount}` by `me`, the signed-in user the auth guard
 * loaded: an aggregator funds another aggregator.
 */
export async function makeFinancing(
  deps: WalletDeps,
  me: SignedInUser,
  input: { aggregatorId: string; amount: number },
  idempotencyKey?: string,
): Promise<FinancingResult> {
  const actor = actorOf(me);
  const users = await findWalletUsers(deps.db, [input.aggregatorId], { includeDeleted: true });
  const recipient = requireUser(
    users.find((u) => u.id === input.aggregatorId.toLowerCase()),
    'Agrégateur introuvable',
  );
  if (recipient.id === actor.userId) {
    throw new ValidationError('Vous ne pouvez pas vous financer vous-même', {
      fields: { aggregatorId: 'Vous ne pouvez pas vous financer vous-même' },
    });
  }
  const { answer } = await moveBetweenWallets(deps, actor, recipient, {
    command: 'financing',
    referencePrefix: 'FIN',
    idempotencyKey,
    from: actor.walletId!,
    fingerprint: requestFingerprint('financing', input),
    decide: (states, ids, facts) => finance(states, { ...ids, amount: input.amount }, actor, facts),
  });
  return {
    ...answer,
    operationType: 'STANDARD',
    status: 'SUCCESS',
    aggregator: {
      id: recipient.id,
      firstname: recipient.firstname,
      lastname: recipient.lastname,
      walletId: recipient.walletId,
    },
  };
}

/**
 * The wallet an id the client gave designates for `actor`: its own wallet when the id is its
 * user id or wallet id, else the id as given (a wallet that is not the actor's, which the
 * decider refuses with 403 — the one ownership check of the command).
 */
function ownWalletOr(actor: Actor, id: string): string {
  const wanted = id.toLowerCase();
  return wanted === actor.userId ? actor.walletId! : wanted;
}

/** Opens the actor's wallet on first use, when `walletId` is it (never another's). */
const ownWallet = (actor: Actor, walletId: string) =>
  walletId === actor.walletId ? opensWallet({ walletId, ownerUserId: actor.userId }) : undefined;

/**
 * A wallet-to-wallet movement (transfer, financing): one command over both streams (a
 * wallet used for the first time is opened in the same append), keyed per user and command.
 * A movement from a wallet to itself reads its one stream as both sides, for the decider to
 * refuse it.
 */
async function moveBetweenWallets(
  deps: WalletDeps,
  actor: Actor,
  recipient: WalletUser,
  move: {
    command: 'transfer' | 'financing';
    /** The source wallet as asked for: the decider refuses one that is not the actor's. */
    from: string;
    referencePrefix: 'TRF' | 'FIN';
    idempotencyKey: string | undefined;
    /** The client's request (requestFingerprint), tied to its idempotency key. */
    fingerprint: string;
    /** The read guards of the users read from the directory (see makeTransfer). */
    guards?: ReadGuard[];
    decide(
      states: { source: WalletState; destination: WalletState },
      ids: { reference: string; sourceWalletId: string; destinationWalletId: string },
      facts: { recipient: Recipient; limits: AmountLimits },
    ): Decision<MovementAnswer>;
  },
): Promise<{ answer: MovementAnswer; from: string }> {
  const from = move.from;
  const ids = {
    reference: newReference(move.referencePrefix),
    sourceWalletId: from,
    destinationWalletId: recipient.walletId,
  };
  const facts = {
    recipient: {
      userId: recipient.id,
      role: recipient.role,
      clusterId: recipient.clusterId,
      status: recipientStatus(recipient),
    },
    limits: deps.limits,
  };
  const source = streamRef(walletStream, walletStreamId(from));
  const command = {
    idempotency: scopedKey(actor.userId, move.command, move.idempotencyKey, move.fingerprint),
    metadata: { userId: actor.userId },
    ...(move.guards ? { guards: move.guards } : {}),
  };
  const answer =
    from === recipient.walletId
      ? await handleCommand(deps.pipeline, {
          ...command,
          streams: { source },
          decide: ({ source }) => move.decide({ source, destination: source }, ids, facts),
        })
      : await handleCommand(deps.pipeline, {
          ...command,
          streams: {
            source,
            destination: streamRef(walletStream, walletStreamId(recipient.walletId)),
          },
          open: {
            source: ownWallet(actor, from),
            destination: opensWallet({ walletId: recipient.walletId, ownerUserId: recipient.id }),
          },
          decide: (states) => move.decide(states, ids, facts),
        });
  return { answer, from };
}
