import { handleCommand, streamRef, type StreamRef } from '@filiere/event-store';
import { BusinessRuleError, ConflictError, NotFoundError } from '@filiere/platform';
import type { SignedInUser } from '../../kernel/actor.js';
import {
  failWithdrawal,
  supplyStream,
  supplyStreamId,
  systemActor,
  validateBankSupply,
  verifySupply,
  walletStream,
  walletStreamId,
  withdrawalStream,
  withdrawalStreamId,
  type SupplyState,
  type WithdrawalState,
} from '../../wallet/index.js';
import {
  approveResolution,
  assignException,
  closeException,
  exceptionStream,
  exceptionStreamId,
  linkException,
  proposeResolution,
  rejectResolution,
  type ExceptionState,
  type FinanceActor,
  type ReconciliationEvent,
  type ResolutionAction,
} from '../domain/index.js';
import type { ReconciliationDeps } from './context.js';

const financeActor = (me: SignedInUser): FinanceActor => ({ userId: me.id, role: me.role_code });

const exceptionRef = (id: string): StreamRef<ExceptionState> =>
  streamRef(exceptionStream, exceptionStreamId(id));

async function loadException(deps: ReconciliationDeps, id: string): Promise<ExceptionState> {
  const state = await handleCommand(deps.pipeline, {
    streams: { exception: exceptionRef(id) },
    decide: ({ exception }) => ({ writes: [], result: exception }),
  });
  if (!state.exists) throw new NotFoundError('Écart introuvable');
  return state;
}

/** Runs one of the exception's own deciders on its stream. */
async function onException(
  deps: ReconciliationDeps,
  me: SignedInUser,
  id: string,
  decide: (state: ExceptionState) => ReconciliationEvent[],
): Promise<{ exceptionId: string }> {
  await loadException(deps, id);
  const ref = exceptionRef(id);
  await handleCommand(deps.pipeline, {
    streams: { exception: ref },
    metadata: { userId: me.id },
    decide: ({ exception }) => {
      const events = decide(exception);
      return { writes: events.length ? [{ streamId: ref.id, events }] : [], result: undefined };
    },
  });
  return { exceptionId: id };
}

export const assign = (
  deps: ReconciliationDeps,
  me: SignedInUser,
  id: string,
  owner: { userId: string; role: string },
) =>
  onException(deps, me, id, (s) =>
    assignException(s, { ownerUserId: owner.userId, ownerRole: owner.role }, financeActor(me)),
  );

/**
 * Links an exception's line to a movement (or its movement to a line) by hand; the
 * counterpart must exist on the same channel and be taken by no other hand link.
 */
export async function link(
  deps: ReconciliationDeps,
  me: SignedInUser,
  id: string,
  input: { counterpartKey: string; note: string },
) {
  const state = await loadException(deps, id);
  const opened = state.opened!;
  const counterpart = input.counterpartKey.trim();
  const exists =
    opened.lineKey === null
      ? await deps.db
          .selectFrom('reconciliation_lines')
          .select('line_key')
          .where('line_key', '=', counterpart)
          .where('source', '=', opened.source)
          .executeTakeFirst()
      : await deps.db
          .selectFrom('reconciliation_movements')
          .select('movement_key')
          .where('movement_key', '=', counterpart)
          .where('channel', '=', opened.source === 'BANK' ? 'BANK' : 'PROVIDER')
          .where('moved_at', 'is not', null)
          .executeTakeFirst();
  if (!exists) throw new NotFoundError('Contrepartie introuvable');
  const taken = await deps.db
    .selectFrom('reconciliation_exceptions')
    .select('exception_id')
    .where('status', '=', 'LINKED')
    .where(opened.lineKey === null ? 'linked_line_key' : 'linked_movement_key', '=', counterpart)
    .executeTakeFirst();
  return onException(deps, me, id, (s) =>
    linkException(s, { counterpartKey: counterpart, note: input.note }, financeActor(me), {
      counterpartFree: taken === undefined,
    }),
  );
}

export const propose = (
  deps: ReconciliationDeps,
  me: SignedInUser,
  id: string,
  input: { action: ResolutionAction; target: string; note: string },
) => onException(deps, me, id, (s) => proposeResolution(s, input, financeActor(me)));

export const reject = (deps: ReconciliationDeps, me: SignedInUser, id: string, note: string) =>
  onException(deps, me, id, (s) => rejectResolution(s, { note }, financeActor(me)));

export const close = (deps: ReconciliationDeps, me: SignedInUser, id: string, reason: string) =>
  onException(deps, me, id, (s) => closeException(s, { reason }, financeActor(me)));

/** The provider's id of a line, from its key (`<source>:<provider reference>`). */
const providerReferenceOf = (lineKey: string) => lineKey.slice(lineKey.indexOf(':') + 1);

/**
 * Second eye: approves the pending proposal, appending in ONE command the exception's
 * resolution and the wallet's own decision (its deciders, on its streams): the supply is
 * credited through `verifySupply` (a provider's line is the provider's proof of payment, as
 * for the background check) or `validateBankSupply` (the wallet's rule: a super admin
 * validates a bank supply); the payout is failed and refunded through `failWithdrawal`.
 * Either both are written or neither.
 */
export async function approve(deps: ReconciliationDeps, me: SignedInUser, id: string) {
  const state = await loadException(deps, id);
  const proposal = state.proposal;
  if (proposal === null) {
    throw new BusinessRuleError('Aucune résolution n’attend d’approbation', {
      reason: 'NO_PROPOSAL',
    });
  }
  const opened = state.opened!;
  const actor = financeActor(me);
  const ref = exceptionRef(id);
  const sameProposal = (s: ExceptionState) => {
    if (s.proposal?.target !== proposal.target || s.proposal.action !== proposal.action) {
      throw new ConflictError('La proposition a changé : rechargez l’écart');
    }
  };
  if (proposal.action === 'CREDIT_SUPPLY') {
    const supply = await readSupply(deps, proposal.target);
    await handleCommand(deps.pipeline, {
      streams: {
        exception: ref,
        supply: streamRef(supplyStream, supplyStreamId(proposal.target)),
        wallet: streamRef(walletStream, walletStreamId(supply.walletId!)),
      },
      metadata: { userId: me.id },
      decide: (states) => {
        sameProposal(states.exception);
        const resolved = approveResolution(states.exception, actor);
        if (states.supply.amount !== opened.amount) {
          throw new BusinessRuleError(
            'Le montant du relevé diffère de celui de l’approvisionnement',
            { reason: 'AMOUNT_DIFFERS' },
          );
        }
        const credit =
          states.supply.method === 'BANK'
            ? validateBankSupply(
                states,
                { reference: proposal.target, retypedReference: proposal.target },
                { userId: me.id, role: me.role_code, walletId: null, clusterId: null },
                { limits: deps.limits },
              )
            : verifySupply(states, { reference: proposal.target }, systemActor, {
                verification: {
                  status: 'SUCCESS',
                  amount: opened.amount,
                  reference: proposal.target,
                  transactionId: providerReferenceOf(opened.lineKey!),
                },
                limits: deps.limits,
              });
        if (!credit.result.credited) {
          throw new BusinessRuleError('Cet approvisionnement ne peut pas être crédité', {
            reason: 'NOT_CREDITED',
          });
        }
        return {
          writes: [{ streamId: ref.id, events: resolved.events }, ...credit.writes],
          result: undefined,
        };
      },
    });
  } else {
    const withdrawal = await readWithdrawal(deps, proposal.target);
    await handleCommand(deps.pipeline, {
      streams: {
        exception: ref,
        withdrawal: streamRef(withdrawalStream, withdrawalStreamId(proposal.target)),
        wallet: streamRef(walletStream, walletStreamId(withdrawal.walletId!)),
      },
      metadata: { userId: me.id },
      decide: (states) => {
        sameProposal(states.exception);
        const resolved = approveResolution(states.exception, actor);
        if (states.withdrawal.status !== 'PENDING') {
          throw new BusinessRuleError(
            states.withdrawal.status === 'SUCCESS'
              ? 'Ce retrait est marqué payé : il ne peut pas être remboursé ainsi'
              : 'Ce retrait a déjà été remboursé',
            { reason: 'PAYOUT_NOT_PENDING' },
          );
        }
        const failed = failWithdrawal(states, {
          withdrawalId: proposal.target,
          reason: 'Absent du relevé du fournisseur (rapprochement)',
        });
        return {
          writes: [{ streamId: ref.id, events: resolved.events }, ...failed.writes],
          result: undefined,
        };
      },
    });
  }
  return { exceptionId: id };
}

async function readSupply(deps: ReconciliationDeps, reference: string): Promise<SupplyState> {
  const supply = await handleCommand(deps.pipeline, {
    streams: { supply: streamRef(supplyStream, supplyStreamId(reference)) },
    decide: ({ supply }) => ({ writes: [], result: supply }),
  });
  if (!supply.exists) throw new NotFoundError('Approvisionnement introuvable');
  return supply;
}

async function readWithdrawal(deps: ReconciliationDeps, id: string): Promise<WithdrawalState> {
  const withdrawal = await handleCommand(deps.pipeline, {
    streams: { withdrawal: streamRef(withdrawalStream, withdrawalStreamId(id)) },
    decide: ({ withdrawal }) => ({ writes: [], result: withdrawal }),
  });
  if (!withdrawal.exists) throw new NotFoundError('Retrait introuvable');
  return withdrawal;
}
