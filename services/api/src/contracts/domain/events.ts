import { z } from 'zod';

/**
 * The contracts context's events, as a zod discriminated union on `type`.
 *
 * Streams:
 * - `contract-<contractId>`: one delivery contract (LIVRAISON), created (with its acceptance
 *   code sent to the grower) → accepted and confirmed → delivered → settled (COMPLETED), or
 *   out of time (OUTTIME) / canceled (CANCELED);
 * - `debt-<debtId>`: one debt a grower owes (AVANCE_SUR_INTRANT, AVANCE_SUR_ANANAS to an
 *   aggregator; FINANCEMENT_SOCIAL to an SFD): opened with its principal, then recovered in
 *   parts by the settlements of delivery contracts.
 *
 * Money is integer F CFA; quantities are integer kilograms (the API speaks tonnes, with at
 * most three decimals, so a tonne figure converts to kg exactly).
 */
const id = z.string().min(1);
const money = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const positiveMoney = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const kg = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const instant = z.iso.datetime();

export const DEBT_KINDS = [
  'AVANCE_SUR_INTRANT',
  'AVANCE_SUR_ANANAS',
  'FINANCEMENT_SOCIAL',
] as const;
export type DebtKind = (typeof DEBT_KINDS)[number];

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), data: z.object(shape) });

/** One part of a debt recovered by a settlement; `to` says who got the money. */
export const recoverySchema = z.object({
  debtId: id,
  kind: z.enum(DEBT_KINDS),
  creditorUserId: id,
  amount: positiveMoney,
  /** AGGREGATOR: kept by the paying aggregator (its own advance); SFD: paid to the SFD. */
  to: z.enum(['AGGREGATOR', 'SFD']),
});
export type Recovery = z.infer<typeof recoverySchema>;

// contract-<contractId>
export const DeliveryContractCreated = event('DeliveryContractCreated', {
  contractId: id,
  reference: id,
  /** The LIVRAISON_PARENT this contract belongs to ('create many'), or null. */
  parentId: id.nullable(),
  aggregatorUserId: id,
  growerId: id,
  growerUserId: id,
  plotId: id,
  productType: z.enum(['CAYENNE_LISSE', 'PAIN_DE_SUCRE']).nullable(),
  quantityKg: kg,
  amount: positiveMoney,
  deliveryDate: isoDate,
  /** The hold placed on the aggregator's wallet for `amount` (same append). */
  holdId: id,
  createdBy: id,
  createdAt: instant,
});
export const DeliveryContractConfirmed = event('DeliveryContractConfirmed', {
  contractId: id,
  confirmedBy: id,
  confirmedAt: instant,
});
/**
 * How a code's hash was made: HMAC-SHA256 keyed from JWT_SECRET, or SCRYPT for codes whose
 * AcceptanceCodeIssued names no scheme (acceptance-code.ts).
 */
export const CODE_SCHEMES = ['HMAC-SHA256', 'SCRYPT'] as const;
export type CodeScheme = (typeof CODE_SCHEMES)[number];
/**
 * A one-time acceptance code sent by SMS to the grower's phone: only its keyed hash with the
 * code's own random salt is kept (`scheme`; none is SCRYPT, acceptance-code.ts). The latest
 * issued code replaces every earlier one.
 */
export const AcceptanceCodeIssued = event('AcceptanceCodeIssued', {
  contractId: id,
  codeId: id,
  /** The grower's phone the code was sent to (E.164). */
  phone: id,
  salt: id,
  scheme: z.enum(CODE_SCHEMES).optional(),
  codeHash: id,
  issuedBy: id,
  issuedAt: instant,
});
/** A wrong code entered for the current code; `wrongAttempts` counts them for that code. */
export const AcceptanceCodeRejected = event('AcceptanceCodeRejected', {
  contractId: id,
  codeId: id,
  enteredBy: id,
  wrongAttempts: z.number().int().positive(),
  at: instant,
});
/**
 * The grower's consent, in the same append as DeliveryContractConfirmed: CODE, the code sent
 * to `phone` entered by `acceptedBy` (its cooperative's user); GROWER_SIGNED_IN, the grower's
 * own authenticated confirmation (no code, no phone).
 */
export const DeliveryContractAccepted = event('DeliveryContractAccepted', {
  contractId: id,
  method: z.enum(['CODE', 'GROWER_SIGNED_IN']),
  acceptedBy: id,
  acceptedAt: instant,
  phone: id.nullable(),
  codeId: id.nullable(),
  codeHash: id.nullable(),
});
/** The quality grades a weighing records at the scale (they do not change the price). */
export const QUALITY_GRADES = ['A', 'B', 'C'] as const;
export type QualityGrade = (typeof QUALITY_GRADES)[number];

export const DeliveryRecorded = event('DeliveryRecorded', {
  contractId: id,
  deliveredKg: kg,
  deliveredOn: isoDate,
  /** The quality grade recorded at the collection centre's scale, when there was one. */
  grade: z.enum(QUALITY_GRADES).optional(),
  recordedBy: id,
  recordedAt: instant,
});
export const DeliveryContractOutOfTime = event('DeliveryContractOutOfTime', {
  contractId: id,
  deliveryDate: isoDate,
  at: instant,
});
export const DeliveryContractCanceled = event('DeliveryContractCanceled', {
  contractId: id,
  canceledBy: id,
  /** The hold released with it (same append). */
  releasedAmount: positiveMoney,
  at: instant,
});
export const DeliveryContractSettled = event('DeliveryContractSettled', {
  contractId: id,
  deliveredKg: kg,
  /** floor(deliveredKg × amount / quantityKg): what the delivery is worth. */
  deliveredAmount: money,
  /** What the aggregator pays: deliveredAmount, or the held amount when the rest is short. */
  payableAmount: money,
  /** deliveredAmount − payableAmount: left unpaid because the available balance was short. */
  shortfall: money,
  capturedFromHold: money,
  releasedFromHold: money,
  extraFromAvailable: money,
  recoveries: z.array(recoverySchema),
  growerNet: money,
  /** The payout of the grower's net to its mobile money number (same append), when one was made. */
  payoutId: id.nullable().optional(),
  settledBy: id,
  settledAt: instant,
});

// debt-<debtId>
export const DebtOpened = event('DebtOpened', {
  debtId: id,
  kind: z.enum(DEBT_KINDS),
  creditorUserId: id,
  debtorGrowerId: id,
  principal: positiveMoney,
  /** The contract (advance, financing) the debt comes from, when there is one. */
  sourceContractId: id.nullable(),
  openedAt: instant,
});
export const DebtRecovered = event('DebtRecovered', {
  debtId: id,
  contractId: id,
  amount: positiveMoney,
  recoveredAt: instant,
});

const schemas = {
  DeliveryContractCreated,
  DeliveryContractConfirmed,
  AcceptanceCodeIssued,
  AcceptanceCodeRejected,
  DeliveryContractAccepted,
  DeliveryRecorded,
  DeliveryContractOutOfTime,
  DeliveryContractCanceled,
  DeliveryContractSettled,
  DebtOpened,
  DebtRecovered,
} as const;

/** Any event of the context, checked on its `type`. */
export const contractEventUnion = z.discriminatedUnion('type', [
  DeliveryContractCreated,
  DeliveryContractConfirmed,
  AcceptanceCodeIssued,
  AcceptanceCodeRejected,
  DeliveryContractAccepted,
  DeliveryRecorded,
  DeliveryContractOutOfTime,
  DeliveryContractCanceled,
  DeliveryContractSettled,
  DebtOpened,
  DebtRecovered,
]);

type Schemas = typeof schemas;
export type ContractEventType = keyof Schemas;
export type ContractEventOf<T extends ContractEventType> = z.infer<Schemas[T]>;
export type ContractEvent = { [T in ContractEventType]: ContractEventOf<T> }[ContractEventType];
export type ContractEventData<T extends ContractEventType> = ContractEventOf<T>['data'];

/** Per event type: the zod schema of its `data` (version 1), for the event catalogue. */
export const contractEventSchemas = Object.fromEntries(
  Object.entries(schemas).map(([type, schema]) => [type, schema.shape.data]),
) as { [T in ContractEventType]: Schemas[T]['shape']['data'] };

export function contractEvent<T extends ContractEventType>(
  type: T,
  data: ContractEventData<T>,
): ContractEventOf<T> {
  return { type, data } as ContractEventOf<T>;
}
