import { z } from 'zod';
import { SOURCES } from './lines.js';

/**
 * Reconciliation's events: statement lines (`recstatement-<source>-<day>`), each day's close
 * (`recday-<source>-<day>`) and each exception's life (`recexception-<id>`).
 */
const source = z.enum(SOURCES);
const direction = z.enum(['IN', 'OUT']);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const amount = z.number().int().nonnegative();
const text = z.string().min(1);

export const statementLine = z.object({
  source,
  providerReference: text,
  reference: text.nullable(),
  direction,
  amount,
  account: text.nullable(),
  occurredAt: z.iso.datetime({ offset: true }),
});

export const EXCEPTION_KINDS = [
  'MISSING_IN_LEDGER',
  'MISSING_AT_PROVIDER',
  'DUPLICATE',
  'AMOUNT_MISMATCH',
] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

export const RESOLUTION_ACTIONS = ['CREDIT_SUPPLY', 'FAIL_PAYOUT'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

const figures = z.object({
  lines: z.number().int(),
  linesAmount: z.number().int(),
  movements: z.number().int(),
  movementsAmount: z.number().int(),
  matched: z.number().int(),
  matchedAmount: z.number().int(),
  unmatchedProvider: z.number().int(),
  unmatchedProviderAmount: z.number().int(),
  unmatchedLedger: z.number().int(),
  unmatchedLedgerAmount: z.number().int(),
  differences: z.number().int(),
  differencesAmount: z.number().int(),
  duplicates: z.number().int(),
});

export const reconciliationSchemas = {
  StatementLineRecorded: z.object({ day, line: statementLine }),
  DayReconciled: z.object({ source, day, figures, reconciledAt: z.iso.datetime() }),
  ExceptionOpened: z.object({
    exceptionId: text,
    kind: z.enum(EXCEPTION_KINDS),
    source,
    day,
    direction,
    amount,
    difference: z.number().int(),
    lineKey: text.nullable(),
    movementKey: text.nullable(),
    reference: text.nullable(),
    account: text.nullable(),
  }),
  ExceptionAssigned: z.object({ exceptionId: text, ownerUserId: text, assignedBy: text }),
  ExceptionLinked: z.object({
    exceptionId: text,
    lineKey: text,
    movementKey: text,
    linkedBy: text,
    note: z.string(),
  }),
  ResolutionProposed: z.object({
    exceptionId: text,
    action: z.enum(RESOLUTION_ACTIONS),
    target: text,
    proposedBy: text,
    note: z.string(),
  }),
  ResolutionRejected: z.object({ exceptionId: text, rejectedBy: text, note: z.string() }),
  ExceptionResolved: z.object({
    exceptionId: text,
    action: z.enum(RESOLUTION_ACTIONS),
    target: text,
    proposedBy: text,
    approvedBy: text,
  }),
  ExceptionClosed: z.object({ exceptionId: text, closedBy: text, reason: text }),
};

type Schemas = typeof reconciliationSchemas;
export type ReconciliationEventType = keyof Schemas;
export type ReconciliationEvent = {
  [T in ReconciliationEventType]: { type: T; data: z.infer<Schemas[T]> };
}[ReconciliationEventType];
export type EventData<T extends ReconciliationEventType> = z.infer<Schemas[T]>;
export type DayFigures = z.infer<typeof figures>;

export function reconciliationEvent<T extends ReconciliationEventType>(
  type: T,
  data: EventData<T>,
): Extract<ReconciliationEvent, { type: T }> {
  return { type, data } as Extract<ReconciliationEvent, { type: T }>;
}
