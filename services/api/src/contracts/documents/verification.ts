import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { eventHash, GENESIS_HASH, readAllRaw, type EventStoreTables } from '@filiere/event-store';
import { narrowDb, NotFoundError } from '@filiere/platform';
import { contractStreamId } from '../domain/index.js';
import { STATUS_LABELS } from '../pdf/contract-pdf.js';
import { isoDay } from '../queries.js';
import type { ContractsTables } from '../tables.js';
import { termsVersionAt } from './terms-read.js';
import type { DocumentsTables } from './tables.js';

export type VerificationTables = DocumentsTables &
  Pick<ContractsTables, 'delivery_contracts'> &
  EventStoreTables;

export type DocumentKind = DocumentsTables['document_references']['kind'];

/** Crockford's base 32 (no i, l, o, u): a reference read aloud or typed is not misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 20 characters of 5 bits: 100 random bits. */
export const REFERENCE_LENGTH = 20;
export const REFERENCE_PATTERN = /^[0-9a-hjkmnp-tv-z]{20}$/;

export const VERIFY_MESSAGES = {
  unknown: 'Aucun document ne porte cette référence : vérifiez l’adresse ou le code QR',
} as const;

export const KIND_LABELS: Record<DocumentKind, string> = {
  CONTRACT: 'Contrat de livraison',
  RECEIPT: 'Reçu de paiement',
  STATEMENT: 'Relevé du producteur',
};

export function newReference(): string {
  const bytes = randomBytes(13);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < REFERENCE_LENGTH; i++) {
    out += ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return out;
}

/** A place in the ledger: an event's position, its hash, when it was recorded. */
export interface LedgerPoint {
  position: number;
  hash: string;
  recordedAt: string;
}

/**
 * What the public verification page shows of a document: its kind, its status, its dates,
 * the terms version, and where it stands in the ledger. Nothing personal: no name, phone,
 * plot, organisation or amount.
 */
export interface PublicVerification {
  reference: string;
  kind: DocumentKind;
  kindLabel: string;
  status: string;
  statusLabel: string;
  /** The day the document's subject began (a contract's creation, a payment, a statement's issue). */
  issuedOn: string;
  /** The contract's number (LIV-…) for a contract or its receipt; null for a statement. */
  documentNumber: string | null;
  period: { from: string; to: string } | null;
  termsVersion: number | null;
  ledger: (LedgerPoint & { intact: boolean }) | null;
}

/** Issues and reads the public references of documents (verification page and QR codes). */
export class DocumentReferences {
  constructor(private readonly db: Kysely<VerificationTables>) {}

  /**
   * The reference of one document, issued at its first print and the same ever after
   * (`subjectKey` unique; concurrent first prints agree on the row that won).
   */
  async issue(input: {
    kind: DocumentKind;
    subjectKey: string;
    subjectId: string;
    period?: { from: string; to: string };
    ledger?: LedgerPoint | null;
  }): Promise<string> {
    const inserted = await this.db
      .insertInto('document_references')
      .values({
        reference: newReference(),
        kind: input.kind,
        subject_key: input.subjectKey,
        subject_id: input.subjectId,
        period_from: input.period?.from ?? null,
        period_to: input.period?.to ?? null,
        ledger_position: input.ledger?.position ?? null,
        ledger_hash: input.ledger?.hash ?? null,
      })
      .onConflict((oc) => oc.column('subject_key').doNothing())
      .returning('reference')
      .executeTakeFirst();
    if (inserted) return inserted.reference;
    const row = await this.db
      .selectFrom('document_references')
      .select('reference')
      .where('subject_key', '=', input.subjectKey)
      .executeTakeFirstOrThrow();
    return row.reference;
  }

  /** The chain's head now: its last position and hash. */
  async head(): Promise<LedgerPoint | null> {
    const row = await this.db
      .selectFrom('events')
      .select(['position', 'hash', 'recorded_at'])
      .orderBy('position', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row
      ? {
          position: Number(row.position),
          hash: row.hash,
          recordedAt: new Date(row.recorded_at).toISOString(),
        }
      : null;
  }

  /** The last event of a stream (or of one type on it): where the document stands. */
  async lastOf(streamId: string, type?: string): Promise<LedgerPoint | null> {
    let query = this.db
      .selectFrom('events')
      .select(['position', 'hash', 'recorded_at'])
      .where('stream_id', '=', streamId);
    if (type) query = query.where('type', '=', type);
    const row = await query.orderBy('version', 'desc').limit(1).executeTakeFirst();
    return row
      ? {
          position: Number(row.position),
          hash: row.hash,
          recordedAt: new Date(row.recorded_at).toISOString(),
        }
      : null;
  }

  /**
   * Whether the event at `position` still has the hash the ledger chained: recomputed from its
   * predecessor's hash and its own content (a changed event, or a hash that is not the one
   * printed, answers false).
   */
  async intact(position: number, hash: string): Promise<boolean> {
    const events = await readAllRaw(this.db, { after: Math.max(0, position - 2), limit: 2 });
    const event = events.find((e) => e.position === position);
    if (!event || event.hash !== hash) return false;
    const previous =
      position === 1 ? GENESIS_HASH : events.find((e) => e.position === position - 1)?.hash;
    return previous !== undefined && eventHash(previous, event) === event.hash;
  }

  /** The public view of a reference; 404 (French) when no document has it. */
  async verify(reference: string): Promise<PublicVerification> {
    const ref = reference.toLowerCase();
    if (!REFERENCE_PATTERN.test(ref)) throw new NotFoundError(VERIFY_MESSAGES.unknown);
    const row = await this.db
      .selectFrom('document_references')
      .selectAll()
      .where('reference', '=', ref)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(VERIFY_MESSAGES.unknown);
    const withIntegrity = async (point: LedgerPoint | null) =>
      point ? { ...point, intact: await this.intact(point.position, point.hash) } : null;

    if (row.kind === 'STATEMENT') {
      const at = row.ledger_position === null ? null : Number(row.ledger_position);
      const point =
        at === null
          ? null
          : await this.db
              .selectFrom('events')
              .select(['position', 'hash', 'recorded_at'])
              .where('position', '=', at)
              .executeTakeFirst();
      return {
        reference: ref,
        kind: row.kind,
        kindLabel: KIND_LABELS.STATEMENT,
        status: 'ISSUED',
        statusLabel: 'Émis',
        issuedOn: new Date(row.issued_at).toISOString().slice(0, 10),
        documentNumber: null,
        period:
          row.period_from && row.period_to
            ? { from: isoDay(row.period_from), to: isoDay(row.period_to) }
            : null,
        termsVersion: null,
        ledger: await withIntegrity(
          point
            ? {
                position: Number(point.position),
                // The hash printed on the statement; a changed event would not match it.
                hash: row.ledger_hash ?? point.hash,
                recordedAt: new Date(point.recorded_at).toISOString(),
              }
            : null,
        ),
      };
    }

    const contract = await this.db
      .selectFrom('delivery_contracts')
      .select(['id', 'reference', 'status', 'created_at'])
      .where('id', '=', row.subject_id)
      .executeTakeFirst();
    if (!contract) throw new NotFoundError(VERIFY_MESSAGES.unknown);
    const streamId = contractStreamId(contract.id);
    if (row.kind === 'RECEIPT') {
      const settled = await this.lastOf(streamId, 'DeliveryContractSettled');
      return {
        reference: ref,
        kind: row.kind,
        kindLabel: KIND_LABELS.RECEIPT,
        status: settled ? 'PAID' : 'NOT_PAID',
        statusLabel: settled ? 'Payé' : 'Non payé',
        issuedOn: settled ? settled.recordedAt.slice(0, 10) : isoDay(contract.created_at),
        documentNumber: contract.reference,
        period: null,
        termsVersion: null,
        ledger: await withIntegrity(settled),
      };
    }
    const created = await this.lastOrFirst(streamId);
    return {
      reference: ref,
      kind: row.kind,
      kindLabel: KIND_LABELS.CONTRACT,
      status: contract.status,
      statusLabel: STATUS_LABELS[contract.status] ?? 'Inconnu',
      issuedOn: new Date(contract.created_at).toISOString().slice(0, 10),
      documentNumber: contract.reference,
      period: null,
      termsVersion: created.first
        ? await termsVersionAt(
            narrowDb<Pick<EventStoreTables, 'events'>>()(this.db),
            created.first.position,
          )
        : null,
      ledger: await withIntegrity(created.last),
    };
  }

  /** A stream's first and last events. */
  private async lastOrFirst(
    streamId: string,
  ): Promise<{ first: LedgerPoint | null; last: LedgerPoint | null }> {
    const rows = await this.db
      .selectFrom('events')
      .select(['position', 'hash', 'recorded_at', 'version'])
      .where('stream_id', '=', streamId)
      .orderBy('version', 'asc')
      .execute();
    const point = (r: (typeof rows)[number] | undefined): LedgerPoint | null =>
      r
        ? {
            position: Number(r.position),
            hash: r.hash,
            recordedAt: new Date(r.recorded_at).toISOString(),
          }
        : null;
    return { first: point(rows[0]), last: point(rows.at(-1)) };
  }
}
