import { handleCommand, requestFingerprint, streamRef } from '@filiere/event-store';
import {
  BusinessRuleError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '@filiere/platform';
import {
  cancelSupply,
  initiateSupply,
  markSupplyPending,
  opensWallet,
  rejectBankSupply,
  supplyStream,
  supplyStreamId,
  validateBankSupply,
  verifySupply,
  walletStream,
  walletStreamId,
  type Actor,
  type PaymentMethod,
  type SupplyAnswer,
  type SupplyState,
  type SupplyStatus,
} from '../domain/index.js';
import { beninPhone } from '../providers/fedapay.js';
import {
  ProviderUnavailableError,
  type ProviderTransaction,
  type WidgetConfig,
} from '../providers/port.js';
import { scopedKey, type WalletDeps } from './context.js';
import { newReference } from './references.js';
import { actorOf } from './users.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';

export interface SupplyInput {
  amount: number;
  walletId: string;
  accountType: PaymentMethod;
  bank?: string | null;
  /** The payer's mobile money number for the widget (8 or 10 digits, +229 optional). */
  phone?: string | null;
}

export interface SupplyCreated {
  reference: string;
  status: 'INIT';
  amount: number;
  paymentMethod: PaymentMethod;
  bankAccountNumber: { accountNumber: string; bankName: string } | null;
  widget: WidgetConfig | null;
}

/**
 * `POST /supply`: issues a reference. BANK answers the accepted bank's account number to
 * write the reference on the slip; MOBILE_MONEY / CARD answer the provider widget's config.
 */
export async function createSupply(
  deps: WalletDeps,
  me: SignedInUser,
  input: SupplyInput,
  idempotencyKey?: string,
): Promise<SupplyCreated> {
  const actor = actorOf(me);
  if (input.walletId.toLowerCase() !== actor.walletId) {
    throw new ForbiddenError('Ce portefeuille ne vous appartient pas');
  }
  if (input.accountType === 'BANK' && !input.bank?.trim()) {
    throw new ValidationError('Ce champ est obligatoire', {
      fields: { bank: 'Ce champ est obligatoire' },
    });
  }
  // The payer's number (mobile money or card only): given to the widget, kept on the supply.
  let payerPhone: string | null = null;
  if (input.accountType !== 'BANK' && input.phone?.trim()) {
    payerPhone = beninPhone(input.phone)?.e164 ?? null;
    if (payerPhone === null) {
      throw new ValidationError('Numéro de téléphone invalide', {
        fields: { phone: 'Numéro de téléphone invalide' },
      });
    }
  }
  const walletId = actor.walletId!;
  const reference = newReference('APP');
  const answer = await handleCommand(deps.pipeline, {
    streams: {
      wallet: streamRef(walletStream, walletStreamId(walletId)),
      supply: streamRef(supplyStream, supplyStreamId(reference)),
    },
    open: { wallet: opensWallet({ walletId, ownerUserId: actor.userId }) },
    idempotency: scopedKey(
      actor.userId,
      'supply',
      idempotencyKey,
      requestFingerprint('supply', {
        ...input,
        bank: input.bank ?? null,
        phone: input.phone ?? null,
      }),
    ),
    metadata: { userId: actor.userId },
    decide: (states) =>
      initiateSupply(
        states,
        { reference, walletId, method: input.accountType, amount: input.amount, payerPhone },
        actor,
        { bank: deps.bank, limits: deps.limits },
      ),
  });
  const bank = input.accountType === 'BANK';
  // From now on the server finds the payment by itself: a page lost after paying, or never
  // calling `supply/verify`, loses nothing (the check credits it, or gives it up unpaid).
  if (!bank) await deps.jobs.scheduleSupplyCheck(answer.reference);
  return {
    reference: answer.reference,
    status: 'INIT',
    amount: input.amount,
    paymentMethod: input.accountType,
    bankAccountNumber:
      bank && answer.bankAccountNumber
        ? { accountNumber: answer.bankAccountNumber, bankName: answer.bankName ?? deps.bank.name }
        : null,
    widget: bank
      ? null
      : deps.provider.widgetConfig({
          reference: answer.reference,
          amount: input.amount,
          phone: payerPhone,
        }),
  };
}

export interface SupplySummary {
  reference: string;
  status: SupplyStatus;
  amount: number;
  paymentMethod: PaymentMethod;
  walletId: string;
  credited: boolean;
}

/** A supply's current state, folded from its stream (404 when there is none). */
export async function loadSupply(deps: WalletDeps, reference: string): Promise<SupplyState> {
  const state = await handleCommand(deps.pipeline, {
    streams: { supply: streamRef(supplyStream, supplyStreamId(reference)) },
    decide: ({ supply }) => ({ writes: [], result: supply }),
  });
  if (!state.exists) throw new NotFoundError('Approvisionnement introuvable');
  return state;
}

function summary(state: SupplyState, answer: SupplyAnswer): SupplySummary {
  return {
    reference: answer.reference,
    status: answer.status,
    amount: state.amount,
    paymentMethod: state.method!,
    walletId: state.walletId!,
    credited: answer.credited,
  };
}

/**
 * Applies the provider's answer about a transaction to its supply (credits once). Used by
 * `GET /supply/verify/{transactionId}` and by the background check.
 */
export async function applyVerification(
  deps: WalletDeps,
  actor: Actor,
  reference: string,
  verification: ProviderTransaction,
  request?: { idempotencyKey: string | undefined; fingerprint: string },
): Promise<SupplySummary> {
  const supply = await loadSupply(deps, reference);
  let state = supply;
  const answer = await handleCommand(deps.pipeline, {
    streams: {
      supply: streamRef(supplyStream, supplyStreamId(reference)),
      wallet: streamRef(walletStream, walletStreamId(supply.walletId!)),
    },
    idempotency: request
      ? scopedKey(actor.userId, 'verify', request.idempotencyKey, request.fingerprint)
      : undefined,
    metadata: { userId: actor.userId },
    decide: (states) => {
      state = states.supply;
      return verifySupply(states, { reference }, actor, { verification, limits: deps.limits });
    },
  });
  return summary(state, answer);
}

/**
 * `GET /supply/verify/{transactionId}`: asks the provider about the widget's transaction,
 * then credits the supply it names (or `reference`, when the provider does not know the
 * transaction). A provider that does not answer, or answers PENDING, leaves the supply
 * PENDING and schedules the background check.
 */
export async function verifySupplyTransaction(
  deps: WalletDeps,
  me: SignedInUser,
  transactionId: string,
  reference?: string,
  idempotencyKey?: string,
): Promise<SupplySummary> {
  const actor = actorOf(me);
  let verification: ProviderTransaction;
  try {
    verification = await deps.provider.verify(transactionId);
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError) || !reference) throw error;
    const pending = await markPending(deps, actor, reference);
    await deps.jobs.scheduleSupplyCheck(reference, { transactionId });
    return pending;
  }
  const target = verification.reference || reference;
  if (!target) throw new NotFoundError('Approvisionnement introuvable');
  const result = await applyVerification(deps, actor, target, verification, {
    idempotencyKey,
    fingerprint: requestFingerprint('verify', { transactionId, reference: reference ?? null }),
  });
  if (result.status === 'PENDING' && verification.status === 'PENDING') {
    await deps.jobs.scheduleSupplyCheck(target, { transactionId });
  }
  return result;
}

/** The widget reported a payment: INIT becomes PENDING (system or owner). */
export async function markPending(
  deps: WalletDeps,
  actor: Actor,
  reference: string,
): Promise<SupplySummary> {
  let state: SupplyState | undefined;
  const answer = await handleCommand(deps.pipeline, {
    streams: { supply: streamRef(supplyStream, supplyStreamId(reference)) },
    metadata: { userId: actor.userId },
    decide: ({ supply }) => {
      state = supply;
      return markSupplyPending(supply, { reference }, actor);
    },
  });
  return summary(state!, answer);
}

/**
 * A super admin validates a bank supply: `retypedReference` must equal the supply's
 * reference exactly (`reference`, when given, is the one displayed). Credits once.
 */
export async function validateBankSupplyByReference(
  deps: WalletDeps,
  me: SignedInUser,
  input: { reference?: string; retypedReference: string },
  idempotencyKey?: string,
): Promise<SupplySummary> {
  const actor = actorOf(me);
  if (actor.role !== ROLE.SUPER_ADMIN) {
    throw new ForbiddenError('Seul un super administrateur valide un approvisionnement');
  }
  const reference = input.reference ?? input.retypedReference;
  const supply = await loadSupply(deps, reference);
  let state = supply;
  const answer = await handleCommand(deps.pipeline, {
    streams: {
      supply: streamRef(supplyStream, supplyStreamId(reference)),
      wallet: streamRef(walletStream, walletStreamId(supply.walletId!)),
    },
    idempotency: scopedKey(
      actor.userId,
      'validate-supply',
      idempotencyKey,
      // By path or by body, the same supply and retyped reference are the same request.
      requestFingerprint('validate-supply', {
        reference,
        retypedReference: input.retypedReference,
      }),
    ),
    metadata: { userId: actor.userId },
    decide: (states) => {
      state = states.supply;
      return validateBankSupply(
        states,
        { reference, retypedReference: input.retypedReference },
        actor,
        { limits: deps.limits },
      );
    },
  });
  return summary(state, answer);
}

/** The owner (or a super admin) may see a supply; others get 404. */
export async function supplyForViewer(
  deps: WalletDeps,
  me: SignedInUser,
  reference: string,
): Promise<SupplyState> {
  const supply = await loadSupply(deps, reference);
  if (me.role_code !== ROLE.SUPER_ADMIN && supply.walletId !== me.wallet_id) {
    throw new NotFoundError('Approvisionnement introuvable');
  }
  return supply;
}

/**
 * 'Réessayer': the payment widget again for the same reference, for the payer of a
 * mobile-money or card supply still waiting for its payment (INIT). Another user's supply
 * is 404, as when reading it.
 */
export async function supplyWidget(
  deps: WalletDeps,
  me: SignedInUser,
  reference: string,
): Promise<{ reference: string; status: SupplyStatus; widget: WidgetConfig }> {
  const supply = await loadSupply(deps, reference);
  if (supply.walletId !== me.wallet_id) {
    throw new NotFoundError('Approvisionnement introuvable');
  }
  if (supply.method === 'BANK') {
    throw new BusinessRuleError('Un approvisionnement par virement ne se paie pas en ligne', {
      reason: 'BANK_SUPPLY',
    });
  }
  if (supply.status !== 'INIT') {
    throw new BusinessRuleError('Cet approvisionnement n’attend plus de paiement', {
      reason: 'SUPPLY_NOT_INIT',
      status: supply.status,
    });
  }
  return {
    reference,
    status: supply.status,
    widget: deps.provider.widgetConfig({
      reference,
      amount: supply.amount,
      phone: supply.payerPhone,
    }),
  };
}

/** 'Annuler': the payer gives up its INIT mobile-money or card supply (FAILED, cancelled). */
export async function cancelSupplyByReference(
  deps: WalletDeps,
  me: SignedInUser,
  reference: string,
  idempotencyKey?: string,
): Promise<SupplySummary> {
  const actor = actorOf(me);
  const supply = await loadSupply(deps, reference);
  // Another user's supply is not even named: 404, as when reading it.
  if (supply.walletId !== actor.walletId) throw new NotFoundError('Approvisionnement introuvable');
  let state = supply;
  const answer = await handleCommand(deps.pipeline, {
    streams: { supply: streamRef(supplyStream, supplyStreamId(reference)) },
    idempotency: scopedKey(
      actor.userId,
      'cancel-supply',
      idempotencyKey,
      requestFingerprint('cancel-supply', { reference }),
    ),
    metadata: { userId: actor.userId },
    decide: ({ supply: current }) => {
      state = current;
      return cancelSupply(current, { reference }, actor);
    },
  });
  return summary(state, answer);
}

/**
 * A super admin rejects a bank supply with a reason. `rejected` says whether this call
 * recorded the rejection (false for a repeat), so the requester is mailed once.
 */
export async function rejectBankSupplyByReference(
  deps: WalletDeps,
  me: SignedInUser,
  input: { reference: string; reason: string },
  idempotencyKey?: string,
): Promise<SupplySummary & { rejected: boolean; ownerUserId: string | null }> {
  const actor = actorOf(me);
  if (actor.role !== ROLE.SUPER_ADMIN) {
    throw new ForbiddenError('Seul un super administrateur rejette un approvisionnement');
  }
  const supply = await loadSupply(deps, input.reference);
  let state = supply;
  let wrote = false;
  const answer = await handleCommand(deps.pipeline, {
    streams: { supply: streamRef(supplyStream, supplyStreamId(input.reference)) },
    idempotency: scopedKey(
      actor.userId,
      'reject-supply',
      idempotencyKey,
      requestFingerprint('reject-supply', input),
    ),
    metadata: { userId: actor.userId },
    decide: ({ supply: current }) => {
      state = current;
      const decided = rejectBankSupply(current, input, actor);
      // The last decision taken is the one appended (a retried batch decides again).
      wrote = decided.writes.length > 0;
      return decided;
    },
  });
  return { ...summary(state, answer), rejected: wrote, ownerUserId: state.ownerUserId };
}
