import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';

/**
 * Human references of money movements and advances, computed here only so that the wallet's
 * list, detail, export and statement, the advances' lists, the grower's page and the PDFs show
 * the same string for the same thing (docs/decisions.md "One reference per movement").
 *
 * A movement whose identity is already a readable reference (`APP-…`, `TRF-…`, `FIN-…`,
 * `RET-…` drawn by its command, a contract's `LIV-…`) keeps it. Any other identity (a debt's id, a settlement's
 * id, a hold's id) becomes a typed prefix and the first 10 hexadecimal digits of the md5 of
 * that identity, upper case: deterministic (a replay of the log gives the same string), and
 * 40 bits, so two movements of one family share one with a chance of about 1 in 2 million
 * at 1,000 of them.
 */
export const CODE_DIGITS = 10;

/** The advance and financing families' prefixes (the debt kinds of the contracts context). */
export const ADVANCE_PREFIX = {
  AVANCE_SUR_INTRANT: 'AVI',
  AVANCE_SUR_ANANAS: 'AVA',
  FINANCEMENT_SOCIAL: 'FIS',
} as const;
export type AdvanceKind = keyof typeof ADVANCE_PREFIX;

/** `PREFIX-` and the first 10 hex digits of md5(identity), upper case. */
export function codeOf(prefix: string, identity: string): string {
  const hash = createHash('md5').update(identity).digest('hex');
  return `${prefix}-${hash.slice(0, CODE_DIGITS).toUpperCase()}`;
}

/** The same code in SQL, for searches on a computed reference (`identity` a text expression). */
export function codeOfSql(prefix: RawBuilder<string>, identity: RawBuilder<string>) {
  return sql<string>`(${prefix} || '-' || upper(substr(md5(${identity}), 1, ${sql.lit(CODE_DIGITS)})))`;
}

/** An advance's (a grower's debt's) reference: `AVI-…`, `AVA-…`, `FIS-…`. */
export function advanceReference(kind: AdvanceKind, debtId: string): string {
  return codeOf(ADVANCE_PREFIX[kind] ?? kind, debtId);
}

/** `advanceReference` in SQL: `kind` and `debtId` are column expressions. */
export function advanceReferenceSql(kind: string, debtId: string) {
  const prefix = sql<string>`(case ${sql.ref(kind)} ${sql.join(
    Object.entries(ADVANCE_PREFIX).map(([k, p]) => sql`when ${k} then ${p}`),
    sql` `,
  )} else ${sql.ref(kind)} end)`;
  return codeOfSql(prefix, sql<string>`${sql.ref(debtId)}`);
}

/** A readable reference (`APP-7K3M9Q2X4B`, a contract's code), not a machine id. */
const READABLE = /^[A-Z]{1,4}-[A-Z0-9][A-Z0-9-]*$/;

/**
 * The debt a seasons request's transfer opens has the transfer's id (`request-<n>`); a demo
 * advance's transfer is `AVA-<debt id>`; an input delivery's settlement `delivery-<n>` opens
 * the input advance `input-advance-<n>`. Those movements show their advance's reference.
 */
const REQUEST_TRANSFER = /^request-\d+$/;
const DEMO_ADVANCE = /^(AVA|AVI|FIS)-(.*[a-z].*)$/;
const DELIVERY_SETTLEMENT = /^delivery-(\d+)$/;

/** The input advance an input delivery opens (one per seasons request). */
export const deliveryDebtId = (requestId: number): string => `input-advance-${requestId}`;
/** The settlement of an assignment's hold that pays the provider for one request. */
export const deliverySettlementId = (requestId: number): string => `delivery-${requestId}`;

/**
 * A transfer's reference: a request's is its advance's (pineapple, or a social financing when
 * its reason says so), a demo advance's too; any other is the readable one its command drew.
 */
export function transferReference(reference: string, reason: string | null): string {
  if (REQUEST_TRANSFER.test(reference)) {
    const social = (reason ?? '').startsWith('Financement social');
    return advanceReference(social ? 'FINANCEMENT_SOCIAL' : 'AVANCE_SUR_ANANAS', reference);
  }
  const demo = DEMO_ADVANCE.exec(reference);
  if (demo) {
    const kind = Object.entries(ADVANCE_PREFIX).find(([, p]) => p === demo[1])![0];
    return advanceReference(kind as AdvanceKind, demo[2]!);
  }
  return reference;
}

/** An input provider's assignment's reference, as the seasons' screens show it. */
export const assignmentReference = (id: number): string => `FI-${String(id).padStart(6, '0')}`;

const ASSIGNMENT_HOLD = /^input-assignment-(\d+)$/;

/**
 * A hold's reference (its placing, release, capture): the contract's code that ends its
 * purpose (`LIV-…`, `TR-…`) when it has one, an input provider's assignment's `FI-…`, else a
 * readable id kept or the id coded `RES-…`.
 */
export function holdReference(holdId: string, holdCode: string | undefined): string {
  if (holdCode) return holdCode;
  const assignment = ASSIGNMENT_HOLD.exec(holdId);
  if (assignment) return assignmentReference(Number(assignment[1]));
  return readableReference('RES', holdId);
}

/**
 * A payment out of a hold: a settlement of an input provider's assignment is one delivery,
 * shown as the input advance it opens (each delivery its own); any other payment its hold's
 * reference (a contract's payments are the contract's).
 */
export function holdPaymentReference(
  holdId: string,
  settlementId: string | null,
  holdCode: string | undefined,
): string {
  const delivery = settlementId === null ? null : DELIVERY_SETTLEMENT.exec(settlementId);
  if (delivery) return advanceReference('AVANCE_SUR_INTRANT', deliveryDebtId(Number(delivery[1])));
  return holdReference(holdId, holdCode);
}

/** Whether a settlement pays one input delivery (its reference needs no hold code). */
export const isDeliverySettlement = (settlementId: string): boolean =>
  DELIVERY_SETTLEMENT.test(settlementId);

/** Ids that are already readable references keep them; machine ids are coded with `prefix`. */
export function readableReference(prefix: string, identity: string): string {
  return READABLE.test(identity) ? identity : codeOf(prefix, identity);
}

/** What a hold keeps money for, by its id's family (contracts, carriage, input assignments). */
export type HoldTarget =
  | { kind: 'DELIVERY_CONTRACT'; id: string }
  | { kind: 'CARRIAGE_CONTRACT'; id: string }
  | { kind: 'INPUT_ASSIGNMENT'; id: string }
  | { kind: 'OTHER'; id: null };

/** The record a hold keeps money for, from its id (`contract-<id>`, `carriage-<id>`, …). */
export function holdTarget(holdId: string): HoldTarget {
  const assignment = ASSIGNMENT_HOLD.exec(holdId);
  if (assignment) return { kind: 'INPUT_ASSIGNMENT', id: assignment[1]! };
  if (holdId.startsWith('contract-')) {
    return { kind: 'DELIVERY_CONTRACT', id: holdId.slice('contract-'.length) };
  }
  if (holdId.startsWith('carriage-')) {
    return { kind: 'CARRIAGE_CONTRACT', id: holdId.slice('carriage-'.length) };
  }
  return { kind: 'OTHER', id: null };
}
