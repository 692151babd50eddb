import { ConflictError, ValidationError } from '@filiere/platform';
import { debtStreamId, type DebtState } from './debt-stream.js';
import { decision, type Decision } from './decision.js';
import { contractEvent, DEBT_KINDS, type DebtKind } from './events.js';

/**
 * Opens a debt a grower owes: an input advance (delivered by code) or a pineapple advance,
 * owed to the aggregator who paid it, or a social financing, owed to the SFD. Issued by the
 * inputs and requests flows in the same append as the money they move; twice → 409.
 */
export function openDebt(
  state: DebtState,
  command: {
    debtId: string;
    kind: DebtKind;
    creditorUserId: string;
    debtorGrowerId: string;
    principal: number;
    sourceContractId?: string | null;
  },
  facts: { now: string },
): Decision<{ debtId: string; outstanding: number }> {
  if (state.exists) throw new ConflictError('Cette dette existe déjà');
  if (!DEBT_KINDS.includes(command.kind)) {
    throw new ValidationError('Type de dette invalide', { fields: { kind: 'Entré non valide' } });
  }
  if (!Number.isSafeInteger(command.principal) || command.principal <= 0) {
    throw new ValidationError('Montant invalide', {
      fields: { principal: 'Le montant doit être un entier strictement positif' },
    });
  }
  return decision(
    { debtId: command.debtId, outstanding: command.principal },
    {
      streamId: debtStreamId(command.debtId),
      events: [
        contractEvent('DebtOpened', {
          debtId: command.debtId,
          kind: command.kind,
          creditorUserId: command.creditorUserId,
          debtorGrowerId: command.debtorGrowerId,
          principal: command.principal,
          sourceContractId: command.sourceContractId ?? null,
          openedAt: facts.now,
        }),
      ],
    },
  );
}
