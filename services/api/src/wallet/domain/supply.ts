import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import {
  assertAmount,
  move,
  supplySourceAccount,
  walletAccount,
  type PaymentMethod,
} from './accounts.js';
import {
  decision,
  requireOpenWallet,
  requireOwnWallet,
  SYSTEM_ROLE,
  type Actor,
  type Decision,
} from './decision.js';
import { walletEvent } from './events.js';
import {
  DEFAULT_AMOUNT_LIMITS,
  requireBalanceRoom,
  requireCommandAmountWithin,
  type AmountLimits,
} from './limits.js';
import { supplyStreamId, type SupplyState, type SupplyStatus } from './supply-stream.js';
import { walletStreamId, type WalletState } from './wallet-stream.js';
import { ROLE } from '../../kernel/roles.js';

/** The one bank accepted for top-ups by transfer (from configuration). */
export interface AcceptedBank {
  code: string;
  name: string;
  accountNumber: string;
}

export interface InitiateSupply {
  /** Issued outside (random); the payer writes it on the slip or the widget carries it. */
  reference: string;
  walletId: string;
  method: PaymentMethod;
  amount: number;
  /** The payer's mobile money number (E.164) for the widget; MOBILE_MONEY / CARD only. */
  payerPhone?: string | null;
}

export interface SupplyAnswer {
  reference: string;
  status: SupplyStatus;
  /** True when this command credited the wallet. */
  credited: boolean;
}

const methods: PaymentMethod[] = ['MOBILE_MONEY', 'CARD', 'BANK'];

export function initiateSupply(
  states: { wallet: WalletState; supply: SupplyState },
  command: InitiateSupply,
  actor: Actor,
  facts: { bank: AcceptedBank; limits?: AmountLimits },
): Decision<{ reference: string; bankAccountNumber: string | null; bankName: string | null }> {
  assertAmount(command.amount);
  const limits = facts.limits ?? DEFAULT_AMOUNT_LIMITS;
  requireCommandAmountWithin(command.amount, limits);
  if (!methods.includes(command.method)) {
    throw new ValidationError('Moyen de paiement invalide', {
      fields: { accountType: 'Moyen de paiement invalide' },
    });
  }
  if (!command.reference) {
    throw new ValidationError('Référence manquante', {
      fields: { reference: 'Ce champ est obligatoire' },
    });
  }
  const walletId = requireOpenWallet(states.wallet);
  requireOwnWallet(actor, walletId);
  if (states.supply.exists) throw new ConflictError('Cette référence existe déjà');
  // Checked again when the supply is credited: the balance may have grown meanwhile.
  requireBalanceRoom(states.wallet, command.amount, limits, 'own');
  const bank = command.method === 'BANK';
  return decision(
    {
      reference: command.reference,
      bankAccountNumber: bank ? facts.bank.accountNumber : null,
      bankName: bank ? facts.bank.name : null,
    },
    {
      streamId: supplyStreamId(command.reference),
      events: [
        walletEvent('SupplyInitiated', {
          reference: command.reference,
          walletId,
          ownerUserId: states.wallet.ownerUserId ?? actor.userId,
          method: command.method,
          amount: command.amount,
          bankCode: bank ? facts.bank.code : null,
          bankAccountNumber: bank ? facts.bank.accountNumber : null,
          ...(!bank && command.payerPhone ? { payerPhone: command.payerPhone } : {}),
        }),
      ],
    },
  );
}

function requireSupply(supply: SupplyState): string {
  if (!supply.exists || supply.reference === null) {
    throw new NotFoundError('Approvisionnement introuvable');
  }
  return supply.reference;
}

function requireSupplyActor(supply: SupplyState, actor: Actor): void {
  const allowed =
    actor.role === SYSTEM_ROLE ||
    actor.role === ROLE.SUPER_ADMIN ||
    (supply.walletId !== null && actor.walletId === supply.walletId);
  if (!allowed) throw new ForbiddenError('Cet approvisionnement ne vous appartient pas');
}

const unchanged = (supply: SupplyState, reference: string): Decision<SupplyAnswer> =>
  decision({ reference, status: supply.status!, credited: false });

/** The widget reported success: INIT becomes PENDING until the server verifies. */
export function markSupplyPending(
  supply: SupplyState,
  command: { reference: string },
  actor: Actor,
): Decision<SupplyAnswer> {
  const reference = requireSupply(supply);
  requireSupplyActor(supply, actor);
  if (supply.method === 'BANK' || supply.status !== 'INIT') return unchanged(supply, reference);
  return decision(
    { reference, status: 'PENDING', credited: false },
    {
      streamId: supplyStreamId(command.reference),
      events: [walletEvent('SupplyMarkedPending', { reference })],
    },
  );
}

/** The provider's answer about one of its transactions, as the adapters report it. */
export interface ProviderVerification {
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  amount: number;
  reference: string;
  transactionId: string;
}

/**
 * Server-side check of a mobile-money or card top-up. Credits once: a transaction id
 * already credited, or a supply already final, changes nothing. A transaction carrying
 * another reference is refused (422) without touching the supply; for this reference, a
 * provider FAILED or a different amount fails it.
 */
export function verifySupply(
  states: { supply: SupplyState; wallet: WalletState },
  command: { reference: string },
  actor: Actor,
  facts: { verification: ProviderVerification; limits?: AmountLimits },
): Decision<SupplyAnswer> {
  const reference = requireSupply(states.supply);
  requireSupplyActor(states.supply, actor);
  const { supply, wallet } = states;
  const v = facts.verification;
  if (supply.method === 'BANK') {
    throw new BusinessRuleError(
      'Un approvisionnement par virement est validé par un super administrateur',
    );
  }
  // A supply the payer cancelled, or one the background check gave up on, is still credited
  // if the provider proves it was paid for (a late widget answer): the payer's money is never
  // kept without a credit.
  const paidAfterCancel =
    (supply.failureKind === 'CANCELLED' || supply.failureKind === 'EXPIRED') &&
    v.status === 'SUCCESS' &&
    v.reference === reference &&
    v.amount === supply.amount;
  if (supply.status === 'SUCCESS' || (supply.status === 'FAILED' && !paidAfterCancel))
    return unchanged(supply, reference);
  if (wallet.processedTransactionIds[v.transactionId]) return unchanged(supply, reference);
  if (v.reference !== reference) {
    // Evidence about another payment says nothing about this one: refuse, change nothing.
    throw new BusinessRuleError('Cette transaction ne correspond pas à cet approvisionnement', {
      transactionId: v.transactionId,
    });
  }
  const supplyStream = supplyStreamId(reference);
  if (v.status === 'PENDING') {
    return supply.status === 'INIT'
      ? decision(
          { reference, status: 'PENDING', credited: false },
          { streamId: supplyStream, events: [walletEvent('SupplyMarkedPending', { reference })] },
        )
      : unchanged(supply, reference);
  }
  const failure =
    v.status !== 'SUCCESS'
      ? 'Paiement refusé par le fournisseur'
      : v.amount !== supply.amount
        ? 'Montant de la transaction différent'
        : null;
  if (failure !== null) {
    return decision(
      { reference, status: 'FAILED', credited: false },
      {
        streamId: supplyStream,
        events: [
          walletEvent('SupplyFailed', {
            reference,
            reason: failure,
            providerTransactionId: v.transactionId,
          }),
        ],
      },
    );
  }
  return credit(states, reference, v.transactionId, null, facts.limits);
}

function credit(
  states: { supply: SupplyState; wallet: WalletState },
  reference: string,
  providerTransactionId: string | null,
  validatedBy: string | null,
  limits: AmountLimits = DEFAULT_AMOUNT_LIMITS,
): Decision<SupplyAnswer> {
  const { supply, wallet } = states;
  const walletId = requireOpenWallet(wallet);
  if (walletId !== supply.walletId)
    throw new ConflictError('Portefeuille de l’approvisionnement différent');
  const amount = supply.amount;
  // A refused credit leaves the supply as it was (INIT or PENDING): it can be credited once
  // the wallet has room again.
  requireBalanceRoom(wallet, amount, limits, 'supply');
  const source = supplySourceAccount(supply.method!, supply.bankCode ?? 'UNKNOWN');
  return decision(
    { reference, status: 'SUCCESS', credited: true },
    {
      streamId: supplyStreamId(reference),
      events: [
        walletEvent('SupplySucceeded', {
          reference,
          walletId,
          amount,
          providerTransactionId,
          validatedBy,
        }),
      ],
    },
    {
      streamId: walletStreamId(walletId),
      events: [
        walletEvent('SupplyCredited', {
          walletId,
          reference,
          method: supply.method!,
          amount,
          providerTransactionId,
          postings: move(source, walletAccount(walletId), amount),
        }),
      ],
    },
  );
}

/** The widget or the provider reported a failure: INIT/PENDING become FAILED. */
export function failSupply(
  supply: SupplyState,
  command: { reference: string; reason?: string },
  actor: Actor,
): Decision<SupplyAnswer> {
  const reference = requireSupply(supply);
  requireSupplyActor(supply, actor);
  if (supply.status === 'SUCCESS') {
    throw new BusinessRuleError('Cet approvisionnement a déjà été crédité');
  }
  if (supply.status === 'FAILED') return unchanged(supply, reference);
  const reason = command.reason?.trim() || 'Paiement échoué';
  return decision(
    { reference, status: 'FAILED', credited: false },
    {
      streamId: supplyStreamId(reference),
      events: [walletEvent('SupplyFailed', { reference, reason, providerTransactionId: null })],
    },
  );
}

/**
 * The background check found no payment for a mobile-money or card supply within the abandon
 * delay: INIT or PENDING becomes FAILED with `reason`, marked expired, so that a payment the
 * provider proves later is still credited (`verifySupply`). Only the system decides it; a
 * final supply is left as it is.
 */
export function expireSupply(
  supply: SupplyState,
  command: { reference: string; reason: string },
  actor: Actor,
): Decision<SupplyAnswer> {
  const reference = requireSupply(supply);
  if (actor.role !== SYSTEM_ROLE) {
    throw new ForbiddenError('Seul le contrôle automatique abandonne un approvisionnement');
  }
  if (supply.method === 'BANK' || (supply.status !== 'INIT' && supply.status !== 'PENDING'))
    return unchanged(supply, reference);
  return decision(
    { reference, status: 'FAILED', credited: false },
    {
      streamId: supplyStreamId(command.reference),
      events: [
        walletEvent('SupplyFailed', {
          reference,
          reason: command.reason,
          providerTransactionId: null,
          expired: true,
        }),
      ],
    },
  );
}

/**
 * A super admin confirms a bank top-up by retyping its reference exactly. Only INIT or
 * PENDING supplies; a supply already SUCCESS is answered as is (credits once).
 */
export function validateBankSupply(
  states: { supply: SupplyState; wallet: WalletState },
  command: { reference: string; retypedReference: string },
  actor: Actor,
  facts: { limits?: AmountLimits } = {},
): Decision<SupplyAnswer> {
  if (actor.role !== ROLE.SUPER_ADMIN) {
    throw new ForbiddenError('Seul un super administrateur valide un approvisionnement');
  }
  const reference = requireSupply(states.supply);
  if (states.supply.method !== 'BANK') {
    throw new BusinessRuleError('Seul un approvisionnement par virement se valide ainsi');
  }
  if (command.retypedReference !== reference) {
    throw new ValidationError('La référence saisie ne correspond pas', {
      fields: { reference: 'La référence saisie ne correspond pas' },
    });
  }
  if (states.supply.status === 'SUCCESS') return unchanged(states.supply, reference);
  if (states.supply.failureKind === 'REJECTED') {
    throw new BusinessRuleError(
      'Cet approvisionnement a été rejeté : il ne peut plus être validé',
      {
        reason: 'SUPPLY_REJECTED',
      },
    );
  }
  if (states.supply.status !== 'INIT' && states.supply.status !== 'PENDING') {
    throw new BusinessRuleError('Seul un approvisionnement INIT ou PENDING peut être validé');
  }
  return credit(states, reference, null, actor.userId, facts.limits);
}

/**
 * The payer gives up a mobile-money or card supply it has not paid: INIT becomes FAILED
 * (cancelled). Only its owner; a PENDING one is being verified (the widget reported a
 * payment) and a bank one is decided by a super admin. Cancelling again changes nothing.
 */
export function cancelSupply(
  supply: SupplyState,
  command: { reference: string },
  actor: Actor,
): Decision<SupplyAnswer> {
  const reference = requireSupply(supply);
  if (supply.walletId === null || actor.walletId !== supply.walletId) {
    throw new ForbiddenError('Cet approvisionnement ne vous appartient pas');
  }
  if (supply.method === 'BANK') {
    throw new BusinessRuleError(
      'Un approvisionnement par virement est validé ou rejeté par un super administrateur',
      { reason: 'BANK_SUPPLY' },
    );
  }
  if (supply.status === 'FAILED') return unchanged(supply, reference);
  if (supply.status === 'SUCCESS') {
    throw new BusinessRuleError('Cet approvisionnement a déjà été crédité', {
      reason: 'SUPPLY_CREDITED',
    });
  }
  if (supply.status === 'PENDING') {
    throw new BusinessRuleError(
      'Ce paiement est en cours de vérification : l’approvisionnement ne peut plus être annulé',
      { reason: 'SUPPLY_PENDING' },
    );
  }
  return decision(
    { reference, status: 'FAILED', credited: false },
    {
      streamId: supplyStreamId(command.reference),
      events: [walletEvent('SupplyCancelled', { reference, cancelledBy: actor.userId })],
    },
  );
}

/**
 * A super admin refuses a bank supply (no transfer arrived, wrong amount…) with a reason the
 * requester is told: INIT or PENDING becomes FAILED (rejected). A validated supply cannot
 * be rejected (422); rejecting again changes nothing.
 */
export function rejectBankSupply(
  supply: SupplyState,
  command: { reference: string; reason: string },
  actor: Actor,
): Decision<SupplyAnswer> {
  if (actor.role !== ROLE.SUPER_ADMIN) {
    throw new ForbiddenError('Seul un super administrateur rejette un approvisionnement');
  }
  const reference = requireSupply(supply);
  if (supply.method !== 'BANK') {
    throw new BusinessRuleError('Seul un approvisionnement par virement peut être rejeté');
  }
  const reason = command.reason.trim();
  if (!reason) {
    throw new ValidationError('Le motif du rejet est obligatoire', {
      fields: { reason: 'Ce champ est obligatoire' },
    });
  }
  if (supply.status === 'SUCCESS') {
    throw new BusinessRuleError(
      'Cet approvisionnement a déjà été validé : il ne peut plus être rejeté',
      { reason: 'SUPPLY_CREDITED' },
    );
  }
  if (supply.status === 'FAILED') return unchanged(supply, reference);
  return decision(
    { reference, status: 'FAILED', credited: false },
    {
      streamId: supplyStreamId(command.reference),
      events: [walletEvent('SupplyRejected', { reference, reason, rejectedBy: actor.userId })],
    },
  );
}
