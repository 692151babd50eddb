import {
  BusinessRuleError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
} from '@filiere/platform';
import { ROLE } from '../../kernel/roles.js';
import { contractStreamId, type ContractState } from './contract-stream.js';
import { decision, type ContractActor, type Decision } from './decision.js';
import { contractEvent } from './events.js';

/**
 * The grower's consent to a delivery contract by a one-time code (decisions.md, "Contract
 * acceptance by code").
 *
 * - A contract is created with a 6-digit code sent by SMS to the grower's phone; the stream
 *   keeps only its keyed hash with a salt of its own (AcceptanceCodeIssued). A new code
 *   ('Renvoyer le code') replaces the previous one, which no longer counts.
 * - The grower's cooperative enters the code the grower gives it ('Confirmer'): the right code
 *   records DeliveryContractAccepted (CODE, who entered it, when, the phone the code went
 *   to) with DeliveryContractConfirmed; a wrong one records AcceptanceCodeRejected. After
 *   MAX_WRONG_CODES wrong codes the code is locked until a new one is sent.
 * - The grower signed in confirms himself: his authenticated confirmation is his consent
 *   (GROWER_SIGNED_IN), with no code.
 * - A new code: at most one per RESEND_INTERVAL_MS and MAX_CODES per contract, while PENDING.
 *
 * Invariant: CONFIRMED, DELIVERED, COMPLETED and OUTTIME contracts hold exactly one
 * DeliveryContractAccepted, appended with their DeliveryContractConfirmed; no delivery is
 * recorded and no run settles a contract without it (delivery-contract.ts, settlement.ts).
 */
export const MAX_WRONG_CODES = 5;
export const MAX_CODES = 5;
export const RESEND_INTERVAL_MS = 60_000;
export const ACCEPTANCE_CODE = /^\d{6}$/;

/** A code about to be sent: its id, the phone and its salted hash (the code itself stays out). */
export interface CodeToIssue {
  codeId: string;
  phone: string;
  salt: string;
  scheme: 'HMAC-SHA256';
  codeHash: string;
}

/** A code entered in 'Confirmer', hashed with the salt of the code it answers (`codeId`). */
export interface EnteredCode {
  codeId: string;
  codeHash: string;
}

/** The refusals of acceptance, with the reason the web's error catalogue maps. */
export const acceptanceErrors = {
  wrong: (remaining: number) =>
    new BusinessRuleError(
      remaining > 0
        ? `Code incorrect : il reste ${remaining} essai${remaining > 1 ? 's' : ''} avant le blocage du code`
        : 'Code incorrect : le code est maintenant bloqué. Renvoyez un nouveau code au producteur',
      { reason: 'ACCEPTANCE_CODE_WRONG', remaining },
    ),
  locked: () =>
    new BusinessRuleError(
      'Ce code est bloqué après trop d’essais erronés. Renvoyez un nouveau code au producteur',
      { reason: 'ACCEPTANCE_CODE_LOCKED' },
    ),
  none: () =>
    new BusinessRuleError(
      'Aucun code n’a été envoyé au producteur pour ce contrat. Renvoyez le code',
      { reason: 'ACCEPTANCE_CODE_NONE' },
    ),
  noPhone: () =>
    new BusinessRuleError(
      'Ce producteur n’a pas de numéro de téléphone : il doit confirmer lui-même le contrat',
      { reason: 'ACCEPTANCE_NO_PHONE' },
    ),
  tooSoon: () =>
    new TooManyRequestsError(
      'Un code vient d’être envoyé au producteur. Attendez une minute avant d’en demander un autre',
      { reason: 'ACCEPTANCE_CODE_TOO_SOON' },
    ),
  tooMany: () =>
    new TooManyRequestsError(
      'Trop de codes ont été envoyés pour ce contrat. Annulez-le et créez-en un nouveau',
      { reason: 'ACCEPTANCE_CODE_TOO_MANY' },
    ),
};

export interface ResendAnswer {
  contractId: string;
  reference: string;
  /** The phone the new code goes to (masked by the caller when shown). */
  phone: string;
}

/**
 * 'Renvoyer le code': a new code to the grower's phone (`code.phone`, read now) replaces the
 * current one, by the contract's aggregator, the grower's cooperative (`facts.cooperativeUserId`)
 * or an admin, while the contract is PENDING, within the rate limits above.
 */
export function resendAcceptanceCode(
  state: ContractState,
  code: CodeToIssue,
  actor: ContractActor,
  facts: { now: string; cooperativeUserId: string | null },
): Decision<ResendAnswer> {
  if (!state.exists || state.contractId === null) throw new NotFoundError('Contrat introuvable');
  const contractId = state.contractId;
  const mayResend =
    actor.userId === state.aggregatorUserId ||
    (facts.cooperativeUserId !== null && actor.userId === facts.cooperativeUserId) ||
    actor.role === ROLE.ADMIN ||
    actor.role === ROLE.SUPER_ADMIN;
  if (!mayResend) {
    throw new ForbiddenError(
      'Seuls l’agrégateur et la coopérative du producteur peuvent renvoyer le code',
    );
  }
  if (state.status !== 'PENDING') {
    throw new BusinessRuleError('Ce contrat n’est plus en attente de confirmation');
  }
  const last = state.acceptanceCode;
  if (last && Date.parse(facts.now) - Date.parse(last.issuedAt) < RESEND_INTERVAL_MS) {
    throw acceptanceErrors.tooSoon();
  }
  if (state.codesIssued >= MAX_CODES) throw acceptanceErrors.tooMany();
  return decision(
    { contractId, reference: state.reference, phone: code.phone },
    {
      streamId: contractStreamId(contractId),
      events: [issuedEvent(contractId, code, actor, facts.now)],
    },
  );
}

export function issuedEvent(
  contractId: string,
  code: CodeToIssue,
  actor: ContractActor,
  now: string,
) {
  return contractEvent('AcceptanceCodeIssued', {
    contractId,
    codeId: code.codeId,
    phone: code.phone,
    salt: code.salt,
    scheme: code.scheme,
    codeHash: code.codeHash,
    issuedBy: actor.userId,
    issuedAt: now,
  });
}

const PRODUCT: Record<string, string> = {
  CAYENNE_LISSE: 'ananas Cayenne lisse',
  PAIN_DE_SUCRE: 'ananas Pain de sucre',
};

/** Thousands grouped with plain spaces (GSM-7 has no narrow no-break space). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** A number with a decimal comma and at most `digits` decimals, trailing zeros dropped. */
function decimal(value: number, digits: number): string {
  const fixed = value.toFixed(digits).replace(/\.?0+$/, '');
  const [whole, part] = fixed.split('.');
  return part ? `${grouped(Number(whole))},${part}` : grouped(Number(whole));
}

/**
 * The offer the grower receives with its code, in GSM-7 French, in one SMS (≤ 160
 * characters): what, how much, the price per kg, the delivery date, the code.
 */
export function acceptanceOfferSms(
  contract: Pick<
    ContractState,
    'reference' | 'productType' | 'quantityKg' | 'amount' | 'deliveryDate'
  >,
  code: string,
): string {
  const product = (contract.productType && PRODUCT[contract.productType]) ?? 'ananas';
  const [y, m, d] = contract.deliveryDate.split('-');
  return (
    `Filière: contrat ${contract.reference}, ${decimal(contract.quantityKg / 1000, 3)} t ` +
    `${product} à ${decimal(contract.amount / contract.quantityKg, 2)} F/kg, ` +
    `livraison au plus tard le ${d}/${m}/${y}. Pour accepter, donnez le code ${code}`
  );
}
