import { z } from 'zod';

/**
 * The wallet context's events. Rule: a movement's postings are recorded in exactly ONE
 * event (the one on the stream of the account that is debited, or on the supply /
 * withdrawal stream for system-to-system settlement). The other side of a wallet-to-wallet
 * movement gets a `…Received` event carrying the amount but no postings, so each wallet's
 * fold gives its balance while a ledger sum over all postings counts each movement once.
 */
const amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const id = z.string().min(1);
const posting = z.object({
  account: z.string().min(1),
  amount: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
});
const postings = z.array(posting).min(2);
const paymentMethod = z.enum(['MOBILE_MONEY', 'CARD', 'BANK']);
const withdrawalMethod = z.enum(['MOBILE_MONEY', 'BANK']);

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), data: z.object(shape) });

// wallet-<walletId>
export const WalletOpened = event('WalletOpened', { walletId: id, ownerUserId: id });
export const SupplyCredited = event('SupplyCredited', {
  walletId: id,
  reference: id,
  method: paymentMethod,
  amount,
  providerTransactionId: z.string().min(1).nullable(),
  postings,
});
export const TransferSent = event('TransferSent', {
  reference: id,
  fromWalletId: id,
  toWalletId: id,
  amount,
  reason: z.string().min(1),
  postings,
});
export const TransferReceived = event('TransferReceived', {
  reference: id,
  fromWalletId: id,
  toWalletId: id,
  amount,
  reason: z.string().min(1),
});
export const FinancingSent = event('FinancingSent', {
  reference: id,
  fromWalletId: id,
  toWalletId: id,
  toUserId: id,
  amount,
  postings,
});
export const FinancingReceived = event('FinancingReceived', {
  reference: id,
  fromWalletId: id,
  toWalletId: id,
  fromUserId: id,
  amount,
});
export const WithdrawalDebited = event('WithdrawalDebited', {
  withdrawalId: id,
  walletId: id,
  method: withdrawalMethod,
  amount,
  destination: id,
  postings,
  /** A payout the system decided (`requestSystemPayout`): why; absent on users' withdrawals. */
  reason: z.string().min(1).optional(),
});
export const WithdrawalRefunded = event('WithdrawalRefunded', {
  withdrawalId: id,
  walletId: id,
  method: withdrawalMethod,
  amount,
  reason: z.string().min(1),
  postings,
});
export const HoldPlaced = event('HoldPlaced', {
  holdId: id,
  walletId: id,
  amount,
  purpose: z.string().min(1),
});
export const HoldReleased = event('HoldReleased', { holdId: id, walletId: id, amount });
export const HoldCaptured = event('HoldCaptured', {
  holdId: id,
  walletId: id,
  amount,
  payments: z.array(z.object({ walletId: id, amount })).min(1),
  postings,
});
export const HoldPaymentReceived = event('HoldPaymentReceived', {
  holdId: id,
  fromWalletId: id,
  walletId: id,
  amount,
});
const nonNegative = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/**
 * One payment of a hold's settlement (`settleHold`), on the payer's stream, with its
 * postings (payer −amount, payee +amount); followed by the settlement's `HoldSettled`.
 */
export const HoldSettlementPaid = event('HoldSettlementPaid', {
  holdId: id,
  settlementId: id,
  fromWalletId: id,
  toWalletId: id,
  amount,
  postings,
});
/**
 * A settlement's figures, on the payer's stream after its payments: `captured` came out of
 * the hold, `excess` out of the available balance, `released` went back to it; the hold
 * keeps `remaining` (0 once closed). No postings (the payments have them).
 */
export const HoldSettled = event('HoldSettled', {
  holdId: id,
  settlementId: id,
  walletId: id,
  payments: z.array(z.object({ walletId: id, amount })),
  captured: nonNegative,
  excess: nonNegative,
  released: nonNegative,
  remaining: nonNegative,
  status: z.enum(['ACTIVE', 'CAPTURED']),
});
/** A payee's side of a `HoldSettlementPaid` (no postings: the payer's event has them). */
export const HoldSettlementReceived = event('HoldSettlementReceived', {
  holdId: id,
  settlementId: id,
  fromWalletId: id,
  walletId: id,
  amount,
});

// supply-<reference>
export const SupplyInitiated = event('SupplyInitiated', {
  reference: id,
  walletId: id,
  ownerUserId: id,
  method: paymentMethod,
  amount,
  bankCode: z.string().min(1).nullable(),
  bankAccountNumber: z.string().min(1).nullable(),
  /** The payer's mobile money number (E.164) for the widget; absent on older events. */
  payerPhone: z.string().min(1).nullable().optional(),
});
export const SupplyMarkedPending = event('SupplyMarkedPending', { reference: id });
export const SupplySucceeded = event('SupplySucceeded', {
  reference: id,
  walletId: id,
  amount,
  providerTransactionId: z.string().min(1).nullable(),
  validatedBy: z.string().min(1).nullable(),
});
export const SupplyFailed = event('SupplyFailed', {
  reference: id,
  reason: z.string().min(1),
  providerTransactionId: z.string().min(1).nullable(),
  /** The background check found no payment within the abandon delay (a later proof credits). */
  expired: z.literal(true).optional(),
});
/** The payer gave up an INIT mobile-money or card supply (FAILED, cancelled). */
export const SupplyCancelled = event('SupplyCancelled', { reference: id, cancelledBy: id });
/** A super admin refused a bank supply, with the reason the requester is told (FAILED). */
export const SupplyRejected = event('SupplyRejected', {
  reference: id,
  reason: z.string().min(1),
  rejectedBy: id,
});

// withdrawal-<withdrawalId>
export const WithdrawalRequested = event('WithdrawalRequested', {
  withdrawalId: id,
  walletId: id,
  method: withdrawalMethod,
  amount,
  destination: id,
  /** A payout the system decided (`requestSystemPayout`): why; absent on users' withdrawals. */
  reason: z.string().min(1).optional(),
});
export const WithdrawalCompleted = event('WithdrawalCompleted', {
  withdrawalId: id,
  walletId: id,
  amount,
  providerId: z.string().min(1).nullable(),
  postings,
});
export const WithdrawalFailed = event('WithdrawalFailed', {
  withdrawalId: id,
  walletId: id,
  amount,
  reason: z.string().min(1),
});

const schemas = {
  WalletOpened,
  SupplyCredited,
  TransferSent,
  TransferReceived,
  FinancingSent,
  FinancingReceived,
  WithdrawalDebited,
  WithdrawalRefunded,
  HoldPlaced,
  HoldReleased,
  HoldCaptured,
  HoldPaymentReceived,
  HoldSettlementPaid,
  HoldSettled,
  HoldSettlementReceived,
  SupplyInitiated,
  SupplyMarkedPending,
  SupplySucceeded,
  SupplyFailed,
  SupplyCancelled,
  SupplyRejected,
  WithdrawalRequested,
  WithdrawalCompleted,
  WithdrawalFailed,
} as const;

type Schemas = typeof schemas;
export type WalletEventType = keyof Schemas;
export type WalletEventOf<T extends WalletEventType> = z.infer<Schemas[T]>;
export type WalletEvent = { [T in WalletEventType]: WalletEventOf<T> }[WalletEventType];
export type WalletEventData<T extends WalletEventType> = WalletEventOf<T>['data'];

/** Per event type: its version and the zod schema of its `data`, for the event catalogue. */
export const walletEventSchemas = Object.fromEntries(
  Object.entries(schemas).map(([type, schema]) => [
    type,
    { version: 1, schema: schema.shape.data },
  ]),
) as { [T in WalletEventType]: { version: 1; schema: Schemas[T]['shape']['data'] } };

export const walletEventTypes = Object.keys(schemas) as WalletEventType[];

/** Builds an event with its type checked against the union. */
export function walletEvent<T extends WalletEventType>(
  type: T,
  data: WalletEventData<T>,
): WalletEventOf<T> {
  return { type, data } as WalletEventOf<T>;
}

/** The postings an event records, or none. */
export function postingsOf(event: WalletEvent): { account: string; amount: number }[] {
  return 'postings' in event.data ? event.data.postings : [];
}
